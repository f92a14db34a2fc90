// Noisy neighbour: tenant acme floods the gateway while globex works. With a
// small share per tenant, acme's excess gets 429 with Retry-After and globex
// gets none and completes everything. No timing assertions here (the latency
// figures are in bench/suites/fairness.ts). Then /metrics, as a platform admin,
// shows the refusals, and is refused to tenants and anonymous callers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { mintPlatformAdminToken } from '../../../src/gateway/portal/platform-admin.ts';

const FLOOD = 60;
const NEIGHBOUR = 15;

describe('gateway fairness under a flooding tenant', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({
      tenants: TWO_TENANTS,
      gateway: { fairness: { defaults: { seats: 2, queueLength: 2, queueTimeoutMs: 5_000 } } },
    });
  });
  after(async () => h?.stop());

  it('gives the flooding tenant 429s with Retry-After, and its neighbour none', async () => {
    const acme = h.http('acme', 'admin');
    const globex = h.http('globex', 'admin');
    // globex is at work before acme floods (the case this file is about): while two tenants are active the
    // adaptive gateway-wide limit applies (ADR 0012, session 12); acme alone would only meet its own 2 seats.
    // acme's one request first gives it its own metrics label before any refusal is counted.
    assert.equal((await acme.get('/api/v1/namespaces/default/configmaps')).status, 200);
    const codes: number[] = [(await globex.get('/api/v1/namespaces/default/configmaps')).status];
    const neighbour = (async () => {
      for (let i = 1; i < NEIGHBOUR; i++) codes.push((await globex.get('/api/v1/namespaces/default/configmaps')).status);
      return codes;
    })();
    const flood = Promise.all(Array.from({ length: FLOOD }, () => acme.get('/api/v1/namespaces/default/configmaps')));
    const [flooded, calm] = await Promise.all([flood, neighbour]);

    const refused = flooded.filter((r) => r.status === 429);
    assert.ok(refused.length > 0, 'the flood must overflow acme\'s 2 seats and 2 queue places');
    assert.ok(refused.length < FLOOD, 'acme still gets its share');
    assert.deepEqual([...new Set(flooded.map((r) => r.status))].sort(), [200, 429]);
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(r.body?.reason, 'TooManyRequests');
      assert.equal(r.body?.details?.retryAfterSeconds, 1);
      assert.doesNotMatch(r.text, /globx1|globex/);
    }
    assert.deepEqual(calm, Array(NEIGHBOUR).fill(200));
  });

  it('serves /metrics to platform admins only, with the refusals counted', async () => {
    assert.equal((await h.anonymous().get('/metrics')).status, 401);
    const tenant = await h.http('acme', 'admin').get('/metrics');
    assert.equal(tenant.status, 403);
    assert.match(tenant.body?.message ?? '', /cannot get path "\/metrics"/);

    const token = await mintPlatformAdminToken(h.gateway.signingKeys, 'ops', 600);
    const watch = await h.http('globex', 'admin').open('GET', '/api/v1/namespaces/default/configmaps?watch=1');
    const r = await h.anonymous().get('/metrics', { Authorization: `Bearer ${token}` });
    watch.req.destroy();
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    const value = (pattern: RegExp): number => Number(pattern.exec(r.text)?.[1] ?? 'NaN');
    assert.ok(value(/^warren_gateway_rejected_requests_total\{tenant="acme01",reason="queue-full"\} (\d+)$/m) > 0);
    assert.ok(value(/^warren_gateway_requests_total\{tenant="acme01",verb="list",resource="configmaps",code="429"\} (\d+)$/m) > 0);
    assert.equal(value(/^warren_gateway_requests_total\{tenant="globx1",verb="list",resource="configmaps",code="200"\} (\d+)$/m), NEIGHBOUR);
    assert.doesNotMatch(r.text, /tenant="globx1",verb="[A-Z]+",resource="[a-z]*",code="429"/);
    assert.match(r.text, /^warren_gateway_request_duration_seconds_bucket\{le="0.005",tenant="globx1",verb="list",resource="configmaps"\}/m);
    assert.equal(value(/^warren_gateway_open_watches\{tenant="globx1"\} (\d+)$/m), 1);
    assert.match(r.text, /^process_resident_memory_bytes /m);
  });
});
