// Patches of every kind work through the gateway and none can remove the
// tenant label; access reviews answer from the tenant's own RBAC; suspension
// and revocation, set on the Tenant upstream, take effect at the gateway.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { PATCH, type KubeHttp } from '../../helpers/kube-http.ts';

const LABEL = 'tenancy.warren.dev/tenant';
const CM = '/api/v1/namespaces/web/configmaps/p1';

describe('gateway: patches, access reviews, suspension and revocation', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  let acme: KubeHttp;
  const upstreamLabel = async () => (await h.upstreamHttp.get('/api/v1/namespaces/acme01-web/configmaps/p1')).body.metadata.labels?.[LABEL];

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    acme = h.http('acme', 'admin');
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
    assert.equal((await acme.post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p1', labels: { app: 'x' } }, data: { a: '1' } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  const patches = [
    { name: 'merge', type: PATCH.merge, body: { data: { b: '2' } }, check: (o: any) => o.data.b === '2' },
    { name: 'json', type: PATCH.json, body: [{ op: 'add', path: '/data/c', value: '3' }], check: (o: any) => o.data.c === '3' },
    { name: 'strategic', type: PATCH.strategic, body: { metadata: { labels: { tier: 'web' } } }, check: (o: any) => o.metadata.labels.tier === 'web' },
    { name: 'apply', type: PATCH.apply, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p1' }, data: { d: '4' } }), check: (o: any) => o.data.d === '4', query: '?fieldManager=test&force=true' },
  ];
  for (const p of patches) {
    it(`${p.name} patch works and keeps the tenant label upstream`, async () => {
      const r = await acme.patch(CM + (p.query ?? ''), p.type, p.body);
      assert.equal(r.status, 200, r.text);
      assert.ok(p.check(r.body), r.text);
      assert.equal(r.body.metadata.namespace, 'web');
      assert.equal(r.body.metadata.labels?.[LABEL], undefined);
      assert.equal(await upstreamLabel(), 'acme01');
    });
  }

  const removals = [
    { name: 'merge null', type: PATCH.merge, body: { metadata: { labels: { [LABEL]: null } } } },
    { name: 'merge overwrite', type: PATCH.merge, body: { metadata: { labels: { [LABEL]: 'globx1' } } } },
    { name: 'merge labels null', type: PATCH.merge, body: { metadata: { labels: null } } },
    { name: 'json remove', type: PATCH.json, body: [{ op: 'remove', path: '/metadata/labels/tenancy.warren.dev~1tenant' }] },
    { name: 'json replace labels', type: PATCH.json, body: [{ op: 'replace', path: '/metadata/labels', value: { app: 'y' } }] },
    { name: 'strategic $patch replace', type: PATCH.strategic, body: { metadata: { labels: { $patch: 'replace', app: 'z' } } } },
    { name: 'apply with another value', type: PATCH.apply, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p1', labels: { [LABEL]: 'globx1' } } }), query: '?fieldManager=evil&force=true' },
  ];
  for (const p of removals) {
    it(`cannot remove or change the tenant label: ${p.name}`, async () => {
      const r = await acme.patch(CM + (p.query ?? ''), p.type, p.body);
      assert.ok(r.status < 500, r.text);
      assert.doesNotMatch(r.text, /acme01|globx1/);
      assert.equal(await upstreamLabel(), 'acme01');
    });
  }

  it('a PUT that drops the labels keeps the tenant label upstream', async () => {
    const got = (await acme.get(CM)).body;
    delete got.metadata.labels;
    assert.equal((await acme.put(CM, got)).status, 200);
    assert.equal(await upstreamLabel(), 'acme01');
  });

  const review = (client: KubeHttp, attrs: Record<string, string>) =>
    client.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } });

  it('SelfSubjectAccessReview: the tenant admin may, the restricted user may not', async () => {
    const admin = await review(acme, { namespace: 'web', verb: 'create', group: 'apps', resource: 'deployments' });
    assert.equal(admin.status, 201, admin.text);
    assert.equal(admin.body.status.allowed, true);
    const dev = await review(h.http('acme', 'dev'), { namespace: 'web', verb: 'list', resource: 'secrets' });
    assert.equal(dev.body.status.allowed, false);
  });

  // The review evaluates tenant RBAC and the resource table: `kubectl auth can-i list persistentvolumes`
  // must not say yes while GET /api/v1/persistentvolumes is a 403. Nodes are a read-only view (ADR 30).
  it('SelfSubjectAccessReview: a denied resource is denied even to the tenant admin; nodes are read, not written', async () => {
    const pvs = await review(acme, { verb: 'list', resource: 'persistentvolumes' });
    assert.equal((await acme.get('/api/v1/persistentvolumes')).status, 403);
    assert.equal(pvs.body.status.allowed, false, 'denied resources are denied even to the tenant admin');
    assert.equal((await review(acme, { verb: 'list', resource: 'nodes' })).body.status.allowed, true);
    assert.equal((await acme.get('/api/v1/nodes')).status, 200);
    const write = await review(acme, { verb: 'delete', resource: 'nodes' });
    assert.equal(write.body.status.allowed, false);
    assert.equal(write.body.status.reason, 'the resource is a read-only view for tenants');
  });

  it('SelfSubjectRulesReview lists the restricted user\'s Role after a grant', async () => {
    await h.grantRole('acme', 'dev', 'web', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]);
    const r = await h.http('acme', 'dev').post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'web' } });
    assert.equal(r.status, 201, r.text);
    assert.ok(r.body.status.resourceRules.some((rule: any) => rule.resources.includes('configmaps') && rule.verbs.includes('list')), r.text);
    assert.ok(!r.body.status.resourceRules.some((rule: any) => rule.resources.includes('secrets') || rule.resources.includes('*')), r.text);
    assert.doesNotMatch(r.text, /acme01|globx1/);
    assert.equal((await h.http('acme', 'dev').get('/api/v1/namespaces/web/configmaps')).status, 200);
  });

  it('suspension: reads allowed, writes refused with 403; lifting it restores writes', async () => {
    await h.patchTenant('acme', { spec: { suspended: true } }, (t) => t?.suspended === true);
    assert.equal((await acme.get(CM)).status, 200);
    assert.equal((await acme.get('/api/v1/namespaces')).status, 200);
    const w = await acme.post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'while-suspended' } });
    assert.equal(w.status, 403, w.text);
    assert.match(w.body.message, /suspended/i);
    assert.doesNotMatch(w.text, /acme01/);
    assert.equal((await acme.patch(CM, PATCH.merge, { data: { s: '1' } })).status, 403);
    assert.equal((await acme.delete(CM)).status, 403);
    assert.equal((await h.http('globex', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'free' } })).status, 201, 'the other tenant is unaffected');
    await h.patchTenant('acme', { spec: { suspended: false } }, (t) => t?.suspended === false);
    assert.equal((await acme.post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-suspension' } })).status, 201);
  });

  it('revocation: a certificate and a token issued before revokeBefore get 401; new ones work', async () => {
    const oldToken = await h.token('acme', 'admin');
    await new Promise((r) => setTimeout(r, 1_100)); // X.509 and JWT times have whole seconds
    const revokeBefore = new Date();
    await h.patchTenant('acme', { spec: { credentials: { revokeBefore: revokeBefore.toISOString() } } }, (t) => (t?.credentialsNotBefore?.getTime() ?? 0) >= revokeBefore.getTime() - 1000);
    const old = await acme.get('/api/v1/namespaces');
    assert.equal(old.status, 401, old.text);
    assert.equal((await h.anonymous().get('/api/v1/namespaces', { Authorization: `Bearer ${oldToken}` })).status, 401);
    await new Promise((r) => setTimeout(r, 1_100));
    const fresh = h.clientFor(await h.issue('acme01', 'admin'));
    assert.equal((await fresh.get('/api/v1/namespaces')).status, 200);
    const newToken = await h.token('acme', 'admin');
    assert.equal((await h.anonymous().get('/api/v1/namespaces', { Authorization: `Bearer ${newToken}` })).status, 200);
    assert.equal((await h.http('globex', 'admin').get('/api/v1/namespaces')).status, 200, 'the other tenant is unaffected');
  });
});
