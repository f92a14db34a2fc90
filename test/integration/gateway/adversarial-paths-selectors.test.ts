// Tenant A tries to reach tenant B's objects through the path and through
// selectors. Every route is a named test; each asserts on the raw body that
// nothing of B came back, whatever the status.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, rawRequest, assertNoLeak, type World } from './adversarial-world.ts';

const PATHS: { name: string; path: string }[] = [
  { name: 'namespace spelled with B\'s prefix (list)', path: '/api/v1/namespaces/globx1-web/configmaps' },
  { name: 'namespace spelled with B\'s prefix (get)', path: '/api/v1/namespaces/globx1-web/configmaps/b-secret' },
  { name: 'B\'s private namespace by its upstream name', path: '/api/v1/namespaces/globx1-b-private/configmaps/b-secret' },
  { name: 'B\'s namespace object by its upstream name', path: '/api/v1/namespaces/globx1-web' },
  { name: 'B\'s cluster-scoped ClusterRole by prefixed name', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/globx1-b-role' },
  { name: 'B\'s CRD by prefixed name', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/bars.globx1-b.example.com' },
  { name: 'B\'s custom resources by prefixed group', path: '/apis/globx1-b.example.com/v1/namespaces/globx1-web/bars' },
  { name: 'A\'s own namespace spelled with A\'s prefix', path: '/api/v1/namespaces/acme01-web/configmaps' },
  { name: 'encoded slash in the namespace', path: '/api/v1/namespaces/web%2F..%2F..%2Fnamespaces%2Fglobx1-web/configmaps' },
  { name: 'encoded slash in the name', path: '/api/v1/namespaces/web/configmaps/..%2F..%2Fglobx1-web%2Fconfigmaps%2Fb-secret' },
  { name: 'encoded slash joining namespace and resource', path: '/api/v1/namespaces/globx1-web%2Fconfigmaps' },
  { name: 'encoded dot segments', path: '/api/v1/namespaces/web/%2E%2E/globx1-web/configmaps' },
  { name: 'doubled leading slash', path: '//api/v1/namespaces/globx1-web/configmaps' },
  { name: 'doubled inner slash', path: '/api/v1//namespaces/globx1-web/configmaps' },
  { name: 'doubled slash before the name', path: '/api/v1/namespaces/web/configmaps//b-secret' },
  { name: '.. segments out of A\'s namespace', path: '/api/v1/namespaces/web/../globx1-web/configmaps' },
  { name: '.. segments to the root', path: '/api/v1/namespaces/web/configmaps/../../../../api/v1/namespaces/globx1-web/configmaps' },
  { name: '. segments', path: '/api/v1/namespaces/./globx1-web/configmaps' },
  { name: 'legacy watch path into B\'s namespace', path: '/api/v1/watch/namespaces/globx1-web/configmaps?timeoutSeconds=1' },
  { name: 'legacy watch path of one of B\'s objects', path: '/api/v1/watch/namespaces/globx1-web/configmaps/b-secret?timeoutSeconds=1' },
  { name: 'legacy watch path across namespaces', path: '/api/v1/watch/configmaps?timeoutSeconds=1' },
  { name: 'legacy watch path of namespaces', path: '/api/v1/watch/namespaces?timeoutSeconds=1' },
  { name: 'legacy watch path of B\'s namespace object', path: '/api/v1/watch/namespaces/globx1-web?timeoutSeconds=1' },
  { name: 'a query-string namespace', path: '/api/v1/configmaps?namespace=globx1-web' },
];

const SELECTORS: { name: string; path: string }[] = [
  { name: 'fieldSelector metadata.namespace=<B\'s upstream namespace>', path: '/api/v1/configmaps?fieldSelector=metadata.namespace%3Dglobx1-web' },
  { name: 'fieldSelector metadata.namespace=<B\'s tenant namespace name that A lacks>', path: '/api/v1/configmaps?fieldSelector=metadata.namespace%3Db-private' },
  { name: 'fieldSelector metadata.namespace==<B\'s upstream namespace>', path: '/api/v1/configmaps?fieldSelector=metadata.namespace%3D%3Dglobx1-b-private' },
  { name: 'fieldSelector metadata.namespace!=web', path: '/api/v1/configmaps?fieldSelector=metadata.namespace!%3Dweb' },
  { name: 'fieldSelector metadata.name=<B\'s object name>', path: '/api/v1/configmaps?fieldSelector=metadata.name%3Db-secret' },
  { name: 'fieldSelector metadata.name on namespaces', path: '/api/v1/namespaces?fieldSelector=metadata.name%3Dglobx1-web' },
  { name: 'labelSelector tenant=B', path: '/api/v1/configmaps?labelSelector=tenancy.warren.dev%2Ftenant%3Dglobx1' },
  { name: 'labelSelector tenant in (B)', path: '/api/v1/configmaps?labelSelector=tenancy.warren.dev%2Ftenant%20in%20(globx1,acme01)' },
  { name: 'labelSelector tenant!=A', path: '/api/v1/configmaps?labelSelector=tenancy.warren.dev%2Ftenant!%3Dacme01' },
  { name: 'labelSelector tenant exists', path: '/api/v1/configmaps?labelSelector=tenancy.warren.dev%2Ftenant' },
  { name: 'labelSelector tenant does not exist', path: '/api/v1/configmaps?labelSelector=!tenancy.warren.dev%2Ftenant' },
  { name: 'labelSelector on B\'s own label', path: '/api/v1/configmaps?labelSelector=team%3Db' },
  { name: 'labelSelector tenant=B on namespaces', path: '/api/v1/namespaces?labelSelector=tenancy.warren.dev%2Ftenant%3Dglobx1' },
  { name: 'labelSelector tenant=B on a watch', path: '/api/v1/configmaps?watch=1&timeoutSeconds=1&labelSelector=tenancy.warren.dev%2Ftenant%3Dglobx1' },
  { name: 'both selectors with a comma-joined tenant term', path: '/api/v1/configmaps?labelSelector=team%3Db,tenancy.warren.dev%2Ftenant%3Dglobx1&fieldSelector=metadata.namespace%3Dglobx1-web' },
];

describe('adversarial: paths and selectors', { timeout: 90_000 }, () => {
  let w: World;
  before(async () => { w = await startWorld(); });
  after(async () => { await w?.h.stop(); });

  it('control: B\'s objects exist and B reaches them', async () => {
    const r = await w.b.get('/api/v1/namespaces/web/configmaps/b-secret');
    assert.equal(r.status, 200);
    assert.equal(r.body.data.v, 'B-MARKER');
  });

  for (const c of PATHS) {
    it(`path: ${c.name}`, async () => {
      assertNoLeak(await rawRequest(w.a, 'GET', c.path), c.path);
      const del = await rawRequest(w.a, 'DELETE', c.path.replace(/\?.*$/, ''));
      assertNoLeak(del, `DELETE ${c.path}`);
    });
  }

  for (const c of SELECTORS) {
    it(`selector: ${c.name}`, async () => {
      const r = await rawRequest(w.a, 'GET', c.path);
      assertNoLeak(r, c.path);
      if (r.status === 200 && r.body?.items) {
        for (const item of r.body.items) assert.equal(item.metadata.namespace ?? 'web', 'web', JSON.stringify(item));
      }
      const coll = await rawRequest(w.a, 'DELETE', c.path.replace(/watch=1&timeoutSeconds=1&/, ''));
      assertNoLeak(coll, `deletecollection ${c.path}`);
    });
  }

  it('after all of it, every one of B\'s objects is intact', async () => {
    for (const n of ['web', 'b-private']) assert.equal((await w.b.get(`/api/v1/namespaces/${n}/configmaps/b-secret`)).status, 200, n);
    assert.equal((await w.b.get('/api/v1/namespaces/web')).status, 200);
    assert.equal((await w.b.get('/apis/rbac.authorization.k8s.io/v1/clusterroles/b-role')).status, 200);
    assert.equal((await w.b.get('/apis/apps/v1/namespaces/web/deployments/nginx')).status, 200);
    assert.equal((await w.b.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/bars.b.example.com')).status, 200);
  });
});
