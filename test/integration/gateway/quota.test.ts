// Tenant-wide quota (Tenant.spec.quota) enforced by the gateway at creation, in
// the words of kube's ResourceQuota admission; the other tenant is unaffected.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

const ns = (name: string): object => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const cm = (name: string): object => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

describe('gateway: tenant quota', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
  });
  after(async () => { await h?.stop(); });

  it('namespaces beyond spec.quota.namespaces are refused with 403 "exceeded quota"', async () => {
    const a = h.http('acme', 'admin');
    const existing = (await a.get('/api/v1/namespaces')).body.items.length as number;
    await h.patchTenant('acme', { spec: { quota: { namespaces: existing + 2 } } }, (info) => info?.quota?.namespaces === existing + 2);
    assert.equal((await a.post('/api/v1/namespaces', ns('q1'))).status, 201);
    assert.equal((await a.post('/api/v1/namespaces', ns('q2'))).status, 201);
    const third = await a.post('/api/v1/namespaces', ns('q3'));
    assert.equal(third.status, 403, third.text);
    assert.equal(third.body.reason, 'Forbidden');
    assert.equal(third.body.message, `namespaces is forbidden: exceeded quota: tenant-quota, requested: count/namespaces=1, used: count/namespaces=${existing + 2}, limited: count/namespaces=${existing + 2}`);
    assert.equal((await a.get('/api/v1/namespaces/q3')).status, 404, 'nothing half-written');
    // The other tenant has no such limit.
    assert.equal((await h.http('globex', 'admin').post('/api/v1/namespaces', ns('q3'))).status, 201);
  });

  it('objects of one resource beyond spec.quota.objectsPerResource are refused; deleting one frees a slot', async () => {
    const a = h.http('acme', 'admin');
    await h.patchTenant('acme', { spec: { quota: { objectsPerResource: 2 } } }, (info) => info?.quota?.objectsPerResource === 2);
    assert.equal((await a.post('/api/v1/namespaces/q1/configmaps', cm('one'))).status, 201);
    assert.equal((await a.post('/api/v1/namespaces/q2/configmaps', cm('two'))).status, 201);
    const third = await a.post('/api/v1/namespaces/q1/configmaps', cm('three'));
    assert.equal(third.status, 403, third.text);
    assert.match(third.body.message, /^configmaps is forbidden: exceeded quota: tenant-quota, requested: count\/configmaps=1, used: count\/configmaps=2, limited: count\/configmaps=2$/);
    assert.equal((await a.delete('/api/v1/namespaces/q1/configmaps/one')).status, 200);
    assert.equal((await a.post('/api/v1/namespaces/q1/configmaps', cm('three'))).status, 201);
  });
});
