// Memory is bounded (issue 6): under sustained mixed load the gateway's memory
// levels off, and slow watch consumers are cut off at the gateway's buffer
// limit instead of being buffered without end. `warren serve` runs as a child
// process, so its RSS is its own (/proc/<pid>/status), with heap-probe.mjs
// preloaded to read its live heap after a full collection; the embedded
// upstream is another child; the clients run here. The scenario is
// test/load/memory-soak.ts, shared with `npm run bench -- memory-soak`, which
// runs it for minutes and reports the slope.
//
// Pins: the shared cache's event ring was bounded by count only (10,000
// events), so a tenant patching a 512 KiB ConfigMap four times a second grew
// the gateway's live heap by 2 MiB/s, every event kept; it is now bounded by
// bytes too (src/gateway/cache/event-ring.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { REPO_ROOT, startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { onboardTenant } from '../helpers/fault-tenant.ts';
import { eventually } from '../helpers/poll.ts';
import { startServerProcess, type ServerProcess } from '../../bench/targets/server-process.ts';
import { HEAP_PROBE_FLAGS, forgetHeapProbe, gatewayMetricsReader, mib, runMemorySoak, trendOf, type GatewayMetrics } from './memory-soak.ts';
import type { LoadTenant } from './load-scenario.ts';

const CLIENTS = 60;
const DURATION_MS = 40_000;
const TENANT_NAMES = ['soak-a', 'soak-b', 'soak-c'];
const SLOW_WATCHERS = 3;
// Past the gateway's 4 MiB limit plus what the sockets can hold (up to 4 MiB of
// send buffer; the receive window stays small while the client does not read),
// with room to spare, yet reached within the run on a slow, shared machine.
const STALL_BYTES = 16 * 2 ** 20;

describe('memory: levels off under sustained load, slow watchers are cut off', { timeout: 150_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'warren-memory-soak-'));
  let host: WarrenProcess | undefined;
  let gateway: ServerProcess | undefined;
  let admin: Upstream | undefined;
  let tenants: LoadTenant[];
  let metrics: () => Promise<GatewayMetrics>;

  before(async () => {
    host = await startWarrenApiserver(join(root, 'host'));
    gateway = await startServerProcess(
      [...HEAP_PROBE_FLAGS, join(REPO_ROOT, 'bin/warren'), 'serve', '--upstream-kubeconfig', host.kubeconfigPath, '--listen', '127.0.0.1:0'],
      /warren gateway ready at (\S+)/,
      { cwd: REPO_ROOT, timeoutMs: 60_000 },
    );
    admin = createUpstream({ yaml: host.kubeconfig });
    const ready = await Promise.all(TENANT_NAMES.map((name) => onboardTenant(admin!, name, {}, 60_000)));
    tenants = ready.map((t) => ({ name: t.name, kubeconfig: t.adminKubeconfig }));
    const { stdout } = await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'bin/warren'), 'admin', 'token', '--kubeconfig', host.kubeconfigPath], { cwd: REPO_ROOT });
    metrics = await gatewayMetricsReader(tenants[0]!.kubeconfig, stdout.trim());
  });
  after(async () => {
    await gateway?.stop();
    if (gateway) forgetHeapProbe(gateway.pid);
    admin?.close();
    await host?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('holds RSS and live heap level over the second half, and cuts slow watchers off at the buffer limit', async (t) => {
    const result = await runMemorySoak({
      tenants, clients: CLIENTS, durationMs: DURATION_MS, gatewayPid: gateway!.pid,
      slowWatchers: SLOW_WATCHERS, stallBytes: STALL_BYTES, log: (m) => t.diagnostic(m),
    });
    const trend = trendOf(result.samples, result.heap, DURATION_MS);
    const load = result.load;
    t.diagnostic(`${String(load.requests)} requests in ${(load.elapsedMs / 1000).toFixed(1)} s; by code: ${[...load.codes].sort().map(([c, n]) => `${c}: ${String(n)}`).join(', ')}`);
    t.diagnostic(`bulk: ${String(result.bulkWrites)} patches, ${mib(result.bulkBytes)} MiB`);
    t.diagnostic(`gateway RSS (MiB): idle ${trend.startMiB.toFixed(1)}, half ${trend.midMiB.toFixed(1)}, end ${trend.endMiB.toFixed(1)}, peak ${trend.peakMiB.toFixed(1)}; `
      + `growth first half ${trend.firstHalfGrowthMiB.toFixed(1)}, second half ${trend.secondHalfGrowthMiB.toFixed(1)}; second-half slope ${trend.secondHalfSlopeMiBPerMin.toFixed(1)} MiB/min`);
    t.diagnostic(`gateway live heap (MiB): idle ${trend.heapStartMiB.toFixed(1)}, half ${trend.heapMidMiB.toFixed(1)}, end ${trend.heapEndMiB.toFixed(1)}; second-half slope ${trend.heapSecondHalfSlopeMiBPerMin.toFixed(1)} MiB/min`);
    t.diagnostic(`live heap probes: ${result.heap.map((h) => `${(h.atMs / 1000).toFixed(0)}s ${mib(h.heapUsedBytes)}`).join(', ')}`);

    // The load really ran: only 2xx and 429 (as load.test.ts asserts at 200 clients).
    const unexpected = [...load.codes.keys()].filter((code) => code !== '200' && code !== '201' && code !== '429');
    assert.deepEqual(unexpected, [], `unexpected outcomes: ${load.unexpected.join(' | ')}`);
    assert.ok(load.requests >= CLIENTS * 5, `too little work done: ${String(load.requests)} requests`);

    // Slow watchers: every one that stalled through STALL_BYTES of events ended by
    // itself (cleanly, or reset once the gateway's grace ran out) having received
    // well under what was sent its way. Not cut off, it would have received it all
    // (each event carries the whole object) and still be open.
    const stalled = result.slow.filter((s) => s.outcome !== 'unfinished' && s.outcome !== 'refused');
    assert.ok(stalled.length >= SLOW_WATCHERS, `too few slow watchers stalled through ${mib(STALL_BYTES)} MiB: ${JSON.stringify(result.slow)}`);
    for (const s of stalled) {
      assert.notEqual(s.outcome, 'open', `a slow watcher was not cut off: ${JSON.stringify(s)}`);
      assert.ok(s.receivedBytes < s.sentBytes * 0.75, `a slow watcher received nearly all that was sent: ${JSON.stringify(s)}`);
    }
    const sentToSlow = stalled.reduce((a, s) => a + s.sentBytes, 0) / 2 ** 20;
    t.diagnostic(`slow watchers: ${String(stalled.length)} cut off (${String(stalled.filter((s) => s.outcome === 'end').length)} clean ends), ${sentToSlow.toFixed(0)} MiB sent their way`);
    // Not asserted: "RSS grew by less than what was sent to the slow watchers".
    // What a stalled round could make a buffering gateway hold (3 x 16 MiB) is
    // the size of RSS's own swing between V8 collections, so it proved nothing
    // either way. The bytes received above show the cut per watcher, and the
    // levelling below holds while slow watchers are stalled all through the run.

    // Levelling off. Work is steady from the first second, so a leak proportional
    // to work grows memory by the same amount in each half (ratio 1), while
    // warm-up (JIT, caches, V8 sizing its heap to the load) lands in the first.
    // The live heap (after a full collection) is exact up to what is in flight
    // (requests, bulk events of 512 KiB; the slow watchers' pending writes are
    // Buffers, outside it), so its second half may grow by half the first plus
    // HEAP_NOISE_MIB. The cache's event ring is full before the baseline
    // (runMemorySoak's warm-up), so it does not fill during the run at a pace
    // set by how starved the machine is. Before the ring had a byte budget, the
    // live heap went 110 -> 167 -> 211 MiB (every bulk event kept): +44 MiB in
    // the second half against the 36 allowed; after it, 94 -> 98 -> 99.
    const HEAP_NOISE_MIB = 8;
    assert.ok(trend.heapEndMiB - trend.heapMidMiB <= Math.max(0, trend.heapMidMiB - trend.heapStartMiB) / 2 + HEAP_NOISE_MIB,
      `live heap did not level off: ${trend.heapStartMiB.toFixed(1)} MiB idle, ${trend.heapMidMiB.toFixed(1)} at the half, ${trend.heapEndMiB.toFixed(1)} at the end`);
    // RSS moves with where the old generation stands between V8's own collections
    // and with malloc's arenas, so its second half may grow by at most half the
    // first, plus RSS_NOISE_MIB (the medians of ten 1-second samples move by
    // about that much in runs that level off).
    const RSS_NOISE_MIB = 48;
    assert.ok(trend.secondHalfGrowthMiB <= Math.max(0, trend.firstHalfGrowthMiB) / 2 + RSS_NOISE_MIB,
      `RSS did not level off: +${trend.firstHalfGrowthMiB.toFixed(1)} MiB in the first half, +${trend.secondHalfGrowthMiB.toFixed(1)} MiB in the second`);

    // Nothing left holding a buffer: once the load stops, every watch is let go.
    await eventually(async () => (await metrics()).openWatches === 0, 'the gateway to hold no watch after the load', { timeoutMs: 20_000, intervalMs: 500 });
  });
});
