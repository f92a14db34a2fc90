// A LIST in one namespace is answered from the shared cache once it is warm; it
// must still read the tenant's own writes at once, and only that namespace.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

describe('gateway: namespaced LIST from the warm cache', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    const a = h.http('acme', 'admin');
    for (const ns of ['one', 'two']) assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('every create is in the very next LIST of its namespace, and nothing of other namespaces or tenants is', async () => {
    const a = h.http('acme', 'admin');
    // An all-namespaces read opens (warms) the resource's cache; namespaced LISTs use it from then on.
    assert.equal((await a.get('/api/v1/configmaps')).status, 200);
    const b = h.http('globex', 'admin');
    assert.equal((await b.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'one' } })).status, 201);
    assert.equal((await b.post('/api/v1/namespaces/one/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'theirs' } })).status, 201);
    assert.equal((await a.post('/api/v1/namespaces/two/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere' } })).status, 201);
    for (let i = 0; i < 20; i++) {
      assert.equal((await a.post('/api/v1/namespaces/one/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } })).status, 201);
      const list = await a.get('/api/v1/namespaces/one/configmaps');
      assert.equal(list.status, 200, list.text);
      const names = list.body.items.map((item: any) => item.metadata.name);
      assert.ok(names.includes(`cm-${i}`), `cm-${i} missing from the LIST right after its create: ${names.join(',')}`);
      assert.ok(!names.includes('theirs') && !names.includes('elsewhere'), names.join(','));
      assert.ok(list.body.items.every((item: any) => item.metadata.namespace === 'one'));
      assert.doesNotMatch(list.text, /acme01|globx1/);
    }
  });
});
