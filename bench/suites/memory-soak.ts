// Memory under sustained load (issue 6): the load tier's memory scenario
// (test/load/memory-soak.ts: the load mix, a bulk writer patching a 512 KiB
// ConfigMap 8x/s, slow watchers stalled through 16 MiB each) run for minutes
// against a `warren serve` child, reporting the gateway's RSS and live heap
// (after a full collection, test/load/heap-probe.mjs) at the start, the half
// and the end, and their slope over the second half. The load tier runs the
// same scenario for 40 s and asserts it levels off; this is the long view.
// WARREN_SOAK_MS sets the duration (default 3 minutes).
import type { Suite } from '../suite.ts';
import { startGatewayStack, type ReadyTenant } from '../targets/gateway-stack.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';
import { HEAP_PROBE_FLAGS, forgetHeapProbe, mib, runMemorySoak, trendOf } from '../../test/load/memory-soak.ts';

const DURATION_MS = Number(process.env.WARREN_SOAK_MS ?? 180_000);
const CLIENTS = 60;
const TENANTS = 3;
const SLOW_WATCHERS = 3;

export const memorySoakSuite: Suite = {
  name: 'memory-soak',
  method: `test/load memory scenario for ${String(DURATION_MS / 1000)} s (WARREN_SOAK_MS): ${String(CLIENTS)} load clients over ${String(TENANTS)} tenants, a 512 KiB ConfigMap patched up to 8x/s, ${String(SLOW_WATCHERS)} slow watchers at a time stalled through 16 MiB; warren serve child, RSS from /proc every 1 s, live heap after a full GC every 5 s`,
  async run(env) {
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: [...env.serverNodeFlags, ...HEAP_PROBE_FLAGS] });
    const notes: string[] = [];
    const rows: GatewayRow[] = [];
    try {
      const ready: ReadyTenant[] = [];
      for (let i = 0; i < TENANTS; i++) ready.push(await stack.createTenant(`soak${String(i)}`));
      const tenants = ready.map((t) => ({ name: t.name, kubeconfig: t.kubeconfig }));
      const result = await runMemorySoak({
        tenants, clients: CLIENTS, durationMs: DURATION_MS, gatewayPid: stack.gateway.pid, slowWatchers: SLOW_WATCHERS,
        log: (m) => env.log(`memory-soak: ${m}`),
      });
      const trend = trendOf(result.samples, result.heap, DURATION_MS);
      const stalled = result.slow.filter((s) => s.outcome !== 'unfinished' && s.outcome !== 'refused');
      rows.push(
        { metric: 'RSS idle, before the load', unit: 'MiB', gateway: trend.startMiB },
        { metric: 'RSS at the half (median of 10%)', unit: 'MiB', gateway: trend.midMiB },
        { metric: 'RSS at the end (median of last 10%)', unit: 'MiB', gateway: trend.endMiB },
        { metric: 'RSS peak (1 s samples)', unit: 'MiB', gateway: trend.peakMiB },
        { metric: 'RSS slope, second half', unit: 'MiB/min', gateway: trend.secondHalfSlopeMiBPerMin },
        { metric: 'live heap idle', unit: 'MiB', gateway: trend.heapStartMiB },
        { metric: 'live heap at the half', unit: 'MiB', gateway: trend.heapMidMiB },
        { metric: 'live heap at the end', unit: 'MiB', gateway: trend.heapEndMiB },
        { metric: 'live heap slope, second half', unit: 'MiB/min', gateway: trend.heapSecondHalfSlopeMiBPerMin },
        { metric: 'load requests/s', unit: 'req/s', gateway: result.load.requests / (result.load.elapsedMs / 1000) },
        { metric: 'slow watchers cut off / stalled', unit: 'count', gateway: stalled.filter((s) => s.outcome === 'end' || s.outcome === 'reset').length },
        { metric: 'slow watchers not cut off', unit: 'count', gateway: stalled.filter((s) => s.outcome === 'open').length },
      );
      const received = stalled.map((s) => s.receivedBytes / 2 ** 20);
      notes.push(
        `load answers by code: ${[...result.load.codes].sort().map(([c, n]) => `${c}: ${String(n)}`).join(', ')}`,
        `bulk: ${String(result.bulkWrites)} patches, ${mib(result.bulkBytes)} MiB; ${String(stalled.length)} slow watchers stalled, ${(stalled.reduce((a, s) => a + s.sentBytes, 0) / 2 ** 20).toFixed(0)} MiB sent their way, each received ${Math.min(...received).toFixed(1)}-${Math.max(...received).toFixed(1)} MiB before its end (${String(stalled.filter((s) => s.outcome === 'end').length)} clean ends)`,
        `RSS every 10 s (MiB): ${result.samples.filter((s) => s.atMs >= 0 && Math.round(s.atMs / 1000) % 10 === 0).map((s) => `${(s.atMs / 1000).toFixed(0)}s ${mib(s.rssBytes)}`).join(', ')}`,
        `live heap (MiB): ${result.heap.filter((_, i) => i % 2 === 0).map((h) => `${(h.atMs / 1000).toFixed(0)}s ${mib(h.heapUsedBytes)}`).join(', ')}`,
      );
    } finally {
      await stack.stop();
      forgetHeapProbe(stack.gateway.pid);
    }
    process.stdout.write(`\nMemory under sustained load (warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes };
  },
};
