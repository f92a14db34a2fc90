// Load (issue 6): 200 concurrent tenant clients over five tenants, mixing
// reads, writes and short watches for 20 s against a real gateway (in process,
// over TLS, embedded upstream). The only errors allowed are 429s with
// Retry-After (no 5xx, no resets, no timeouts), and every acknowledged write
// is readable afterwards. Errors by code, p50/p99 per tenant and peak RSS are
// printed as diagnostics, not asserted: this machine is shared and small.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startGatewayHarness, type GatewayHarness, type HarnessTenant } from '../helpers/gateway-harness.ts';
import { findLostWrites, percentileOf, runLoadScenario, type LoadTenant } from './load-scenario.ts';

const CLIENTS = 200;
const DURATION_MS = 20_000;
const TENANTS: HarnessTenant[] = ['lda001', 'ldb002', 'ldc003', 'ldd004', 'lde005'].map((id) => ({ name: `load-${id}`, id, users: [{ name: 'admin', admin: true }] }));

describe('load: 200 tenant clients mixing reads, writes and watches', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  let tenants: LoadTenant[];
  before(async () => {
    h = await startGatewayHarness({ tenants: TENANTS });
    tenants = TENANTS.map((t) => ({ name: t.name, kubeconfig: readFileSync(h.kubeconfigPath(t.name, 'admin'), 'utf8') }));
  });
  after(async () => h?.stop());

  it('answers everything or refuses with 429 + Retry-After, and loses no acknowledged write', async (t) => {
    let peakRss = process.memoryUsage().rss;
    const result = await runLoadScenario({ tenants, clients: CLIENTS, durationMs: DURATION_MS, sample: () => { peakRss = Math.max(peakRss, process.memoryUsage().rss); } });

    t.diagnostic(`${String(result.requests)} requests in ${(result.elapsedMs / 1000).toFixed(1)} s (${(result.requests / (result.elapsedMs / 1000)).toFixed(0)}/s); by code: ${[...result.codes].sort().map(([c, n]) => `${c}: ${String(n)}`).join(', ')}`);
    for (const [tenant, samples] of [...result.latencies].sort()) {
      t.diagnostic(`${tenant}: ${String(samples.length)} requests, p50 ${percentileOf(samples, 50).toFixed(1)} ms, p99 ${percentileOf(samples, 99).toFixed(1)} ms`);
    }
    t.diagnostic(`peak RSS (test process: gateway, upstream and clients) ${(peakRss / 2 ** 20).toFixed(0)} MiB`);

    const unexpected = [...result.codes.keys()].filter((code) => code !== '200' && code !== '201' && code !== '429');
    assert.deepEqual(unexpected, [], `unexpected outcomes: ${result.unexpected.join(' | ')}`);
    assert.equal(result.refusedWithoutRetryAfter, 0, '429s must carry Retry-After');
    // Every client got work done (how much depends on the machine, so it is a diagnostic, not a goal).
    assert.ok(result.requests >= CLIENTS * 2, `too little work done: ${String(result.requests)} requests`);
    assert.ok(result.acked.size >= CLIENTS / 2, `too few acknowledged writes: ${String(result.acked.size)}`);
    const lost = await findLostWrites(tenants, result.acked);
    assert.deepEqual(lost.slice(0, 10), [], `${String(lost.length)} acknowledged writes not readable`);
  });
});
