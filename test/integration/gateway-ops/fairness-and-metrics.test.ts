// Noisy neighbour: tenant acme floods the gateway while globex works. With a
// small share per tenant, acme's excess gets 429 with Retry-After and globex
// gets none and completes everything. No timing assertions here (the latency
// figures are in bench/suites/fairness.ts). Then /metrics, as a platform admin,
// shows the refusals, and is refused to tenants and anonymous callers.
//
// Why the flood overflows by construction (session 14): a LIST in one namespace
// served from the shared cache holds its seat from the fairness step to the
// end of its response, and in between it waits for one upstream round trip,
// the probe of the upstream's version that proves the cache fresh (ADR 0013).
// Against the in-process upstream that is well under a millisecond, and the
// flood's requests, each on a new connection, reached the gateway one TLS
// handshake apart (the handshake gate, ADR 0017): 2 seats and 2 queue places
// were seldom all taken at once, and on a fast turn every request got 200.
// Here the upstream holds configmaps' version probes (a slow upstream for that
// resource), so each of acme's LISTs keeps its seat until the probe gives up
// (its 1 s bound) and the LIST is forwarded instead, and the flood is sent in
// one burst, over connections opened beforehand where they are still open. globex works on secrets, which
// the held probes do not slow down.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { openConnections, retryOnReset } from '../../helpers/open-connections.ts';
import { eventually } from '../../helpers/poll.ts';
import { mintPlatformAdminToken } from '../../../src/gateway/portal/platform-admin.ts';
import { PROGRESS_REQUEST_HEADER } from '../../../src/core/progress-headers.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';

const FLOOD = 30;
const NEIGHBOUR = 15;
const ACME_LIST = '/api/v1/namespaces/default/configmaps';
const GLOBEX_LIST = '/api/v1/namespaces/default/secrets';

/** The upstream, with the shared cache's version probes of configmaps held while `holding` (released at the end). */
function createProbeGate(): { wrap(upstream: Upstream): Upstream; holding: boolean; probes: number; release(): void } {
  const waiting: Array<() => void> = [];
  const gate = {
    holding: false,
    probes: 0,
    release(): void {
      gate.holding = false;
      for (const resume of waiting.splice(0)) resume();
    },
    wrap: (upstream: Upstream): Upstream => ({
      ...upstream,
      requestOptions: () => upstream.requestOptions(),
      stream: (path, headers) => upstream.stream(path, headers),
      close: () => upstream.close(),
      async request(method, path, body, headers) {
        if (headers?.[PROGRESS_REQUEST_HEADER] && path.startsWith('/api/v1/configmaps?')) {
          gate.probes++;
          if (gate.holding) await new Promise<void>((resume) => waiting.push(resume));
        }
        return await upstream.request(method, path, body, headers);
      },
    }),
  };
  return gate;
}

describe('gateway fairness under a flooding tenant', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  const gate = createProbeGate();
  before(async () => {
    h = await startGatewayHarness({
      tenants: TWO_TENANTS,
      gateway: { fairness: { defaults: { seats: 2, queueLength: 2, queueTimeoutMs: 5_000 } } },
      wrapUpstream: gate.wrap,
    });
  });
  after(async () => {
    gate.release();
    await h?.stop();
  });

  it('gives the flooding tenant 429s with Retry-After, and its neighbour none', async () => {
    const acme = h.http('acme', 'admin');
    const globex = h.http('globex', 'admin');
    // acme's first LIST opens the configmaps cache (and gives acme its own metrics label before any refusal is
    // counted); the flood must be served from the cache, so wait until a LIST is (its freshness probe seen).
    await eventually(async () => (await acme.get(ACME_LIST)).status === 200 && gate.probes > 0, 'acme\'s LISTs served from the shared cache', { timeoutMs: 20_000, intervalMs: 50 });
    const connections = await openConnections(acme, FLOOD);
    gate.holding = true;
    // globex is at work before acme floods (the case this file is about): while two tenants are active the
    // adaptive gateway-wide limit applies (ADR 0012, session 12); acme alone would only meet its own 2 seats.
    const codes: number[] = [(await globex.get(GLOBEX_LIST)).status];
    const neighbour = (async () => {
      for (let i = 1; i < NEIGHBOUR; i++) codes.push((await globex.get(GLOBEX_LIST)).status);
      return codes;
    })();
    const flood = Promise.all(Array.from({ length: FLOOD }, () => retryOnReset((agent) => acme.get(ACME_LIST, undefined, agent ? { agent } : {}), connections.agent)));
    const [flooded, calm] = await Promise.all([flood, neighbour]);
    gate.release();
    connections.close();

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
    const watch = await h.http('globex', 'admin').open('GET', `${GLOBEX_LIST}?watch=1`);
    const r = await h.anonymous().get('/metrics', { Authorization: `Bearer ${token}` });
    watch.req.destroy();
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    const value = (pattern: RegExp): number => Number(pattern.exec(r.text)?.[1] ?? 'NaN');
    assert.ok(value(/^warren_gateway_rejected_requests_total\{tenant="acme01",reason="queue-full"\} (\d+)$/m) > 0);
    assert.ok(value(/^warren_gateway_requests_total\{tenant="acme01",verb="list",resource="configmaps",code="429"\} (\d+)$/m) > 0);
    assert.equal(value(/^warren_gateway_requests_total\{tenant="globx1",verb="list",resource="secrets",code="200"\} (\d+)$/m), NEIGHBOUR);
    assert.doesNotMatch(r.text, /tenant="globx1",verb="[A-Z]+",resource="[a-z]*",code="429"/);
    assert.match(r.text, /^warren_gateway_request_duration_seconds_bucket\{le="0.005",tenant="globx1",verb="list",resource="secrets"\}/m);
    assert.equal(value(/^warren_gateway_open_watches\{tenant="globx1"\} (\d+)$/m), 1);
    assert.match(r.text, /^process_resident_memory_bytes /m);
  });
});
