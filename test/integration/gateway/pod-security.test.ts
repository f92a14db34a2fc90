// Pod Security Admission labels on a tenant's namespaces are the platform's:
// forced at the tenant's level on create, and a tenant cannot weaken them.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

const ENFORCE = 'pod-security.kubernetes.io/enforce';

describe('gateway: pod security labels on tenant namespaces', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    await h.patchTenant('acme', { spec: { podSecurity: 'restricted' } }, (info) => info?.podSecurity === 'restricted');
  });
  after(async () => { await h?.stop(); });

  const upstreamLabels = async (tenant: string, ns: string): Promise<Record<string, string>> =>
    (await h.upstreamHttp.get(`/api/v1/namespaces/${h.idOf(tenant)}-${ns}`)).body.metadata.labels;

  it('a namespace the tenant creates carries the tenant\'s level', async () => {
    const a = h.http('acme', 'admin');
    const r = await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa' } });
    assert.equal(r.status, 201, r.text);
    const labels = await upstreamLabels('acme', 'psa');
    assert.equal(labels[ENFORCE], 'restricted');
    assert.equal(labels['pod-security.kubernetes.io/warn'], 'restricted');
  });

  // Behaviour change (brief H1): a weaker level asked for is refused with 403, no longer silently replaced.
  it('a namespace asking for privileged is refused (403), and not created', async () => {
    const a = h.http('acme', 'admin');
    const r = await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa-priv', labels: { [ENFORCE]: 'privileged' } } });
    assert.equal(r.status, 403, r.text);
    assert.match(r.body.message, /pod-security\.kubernetes\.io\/enforce is set by the platform to "restricted"/);
    assert.doesNotMatch(r.body.message, /acme01-/);
    assert.equal((await h.upstreamHttp.get(`/api/v1/namespaces/${h.idOf('acme')}-psa-priv`)).status, 404);
  });

  it('merge, JSON and apply patches cannot lower it: refused, or (a removal) forced back', async () => {
    const a = h.http('acme', 'admin');
    const merge = await a.patch('/api/v1/namespaces/psa', 'application/merge-patch+json', { metadata: { labels: { [ENFORCE]: 'privileged' } } });
    assert.equal(merge.status, 403, merge.text);
    assert.equal((await upstreamLabels('acme', 'psa'))[ENFORCE], 'restricted');
    await a.patch('/api/v1/namespaces/psa', 'application/json-patch+json', [{ op: 'remove', path: `/metadata/labels/${ENFORCE.replace('/', '~1')}` }]);
    assert.equal((await upstreamLabels('acme', 'psa'))[ENFORCE], 'restricted');
    const apply = await a.patch('/api/v1/namespaces/psa?fieldManager=me&force=true', 'application/apply-patch+yaml', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa', labels: { [ENFORCE]: 'privileged' } } });
    assert.equal(apply.status, 403, apply.text);
    assert.equal((await upstreamLabels('acme', 'psa'))[ENFORCE], 'restricted');
  });

  it('the other tenant gets its own default level (baseline)', async () => {
    assert.equal((await h.http('globex', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa' } })).status, 201);
    assert.equal((await upstreamLabels('globex', 'psa'))[ENFORCE], 'baseline');
  });
});
