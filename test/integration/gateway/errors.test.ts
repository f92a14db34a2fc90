// Errors in tenant terms: what kube-apiserver would say about the tenant's own
// names, never a prefix, never the upstream's address. The upstream-down case
// runs last: it stops this file's upstream.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const LEAK = /acme01|globx1|127\.0\.0\.1/;

describe('gateway: errors in tenant terms', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  let acme: KubeHttp;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    acme = h.http('acme', 'admin');
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('404 names the tenant\'s object, not the upstream one', async () => {
    const r = await acme.get('/api/v1/namespaces/web/configmaps/nope');
    assert.equal(r.status, 404);
    assert.equal(r.body.reason, 'NotFound');
    assert.equal(r.body.message, 'configmaps "nope" not found');
    assert.equal(r.body.details.name, 'nope');
    assert.doesNotMatch(r.text, LEAK);
  });

  it('404 for a missing namespace names the tenant\'s namespace', async () => {
    const r = await acme.post('/api/v1/namespaces/ghost/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.message, 'namespaces "ghost" not found');
    assert.equal(r.body.details.name, 'ghost');
    assert.doesNotMatch(r.text, LEAK);
    const ns = await acme.get('/api/v1/namespaces/ghost');
    assert.equal(ns.status, 404);
    assert.equal(ns.body.message, 'namespaces "ghost" not found');
  });

  it('409 AlreadyExists names the tenant\'s object', async () => {
    const r = await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } });
    assert.equal(r.status, 409);
    assert.equal(r.body.message, 'namespaces "web" already exists');
    assert.doesNotMatch(r.text, LEAK);
  });

  it('422 for a namespace over 56 characters, in tenant terms', async () => {
    const long = 'n'.repeat(57);
    const r = await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: long } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.details.name, long);
    assert.doesNotMatch(r.text, LEAK);
    const ok56 = await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n'.repeat(56) } });
    assert.equal(ok56.status, 201, ok56.text);
  });

  for (const c of [
    // Nodes are a read-only view now (ADR 30): persistentvolumes and componentstatuses stay denied.
    { name: 'list componentstatuses', path: '/api/v1/componentstatuses', resource: 'componentstatuses' },
    { name: 'get a persistentvolume', path: '/api/v1/persistentvolumes/node-1', resource: 'persistentvolumes' },
    { name: 'list persistentvolumes', path: '/api/v1/persistentvolumes', resource: 'persistentvolumes' },
    { name: 'list CSRs', path: '/apis/certificates.k8s.io/v1/certificatesigningrequests', resource: 'certificatesigningrequests' },
  ]) {
    it(`403 for a denied resource names it as written: ${c.name}`, async () => {
      const r = await acme.get(c.path);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.reason, 'Forbidden');
      assert.match(r.body.message, new RegExp(`^${c.resource}(\\.[a-z0-9.]+)?( "node-1")? is forbidden: User "admin" cannot`));
      assert.doesNotMatch(r.text, LEAK);
    });
  }

  it('403 for a restricted user names the resource and the tenant\'s namespace', async () => {
    const r = await h.http('acme', 'dev').get('/api/v1/namespaces/web/secrets');
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'secrets is forbidden: User "dev" cannot list resource "secrets" in API group "" in the namespace "web"');
  });

  it('503 when the upstream is stopped (runs last)', async () => {
    await h.api.stop();
    const r = await acme.get('/api/v1/namespaces/web/configmaps');
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.reason, 'ServiceUnavailable');
    assert.doesNotMatch(r.text, LEAK);
  });
});
