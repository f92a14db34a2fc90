// Each namespaced watch holds an upstream connection for its whole life. The
// benchmark saw the 257th watch through `warren serve` wait for a socket of the
// capped pool, with every later request behind it; watches now use their own,
// uncapped pool. (In process, this test did not reproduce the block without the
// fix; it pins the behaviour: many watches from one tenant block nobody.)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

const WATCHES = 300;

describe('gateway: many namespaced watches', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  const open: Array<{ req: { destroy(): void } }> = [];
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    assert.equal((await h.http('acme', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'w' } })).status, 201);
  });
  after(async () => {
    for (const w of open) w.req.destroy();
    await h?.stop();
  });

  it(`${WATCHES} open watches from one tenant do not block the gateway for anyone`, async () => {
    const acme = h.http('acme', 'admin');
    for (let batch = 0; batch < WATCHES; batch += 50) {
      const opened = await Promise.all(Array.from({ length: 50 }, () => acme.open('GET', '/api/v1/namespaces/w/configmaps?watch=true&timeoutSeconds=120', { timeoutMs: 15_000 })));
      for (const w of opened) {
        assert.equal(w.res.statusCode, 200);
        open.push(w);
      }
    }
    const other = await h.http('globex', 'admin').get('/api/v1/namespaces');
    assert.equal(other.status, 200, 'the other tenant is still served');
    const same = await acme.get('/api/v1/namespaces/w/configmaps');
    assert.equal(same.status, 200, 'and so is the tenant itself');
  });
});
