// Memory under sustained load (issue 6: "under sustained load, RSS levels
// off; slow watch consumers are cut off at a buffer limit"), shared by the load
// tier (memory-levels-off.test.ts, bounded) and `npm run bench -- memory-soak`
// (longer). While the load scenario runs (reads, writes, short watches opening
// and closing), a bulk writer patches one big ConfigMap in its own namespace and
// slow watchers on that namespace stop reading until tens of MiB have been sent
// their way, then read again. The gateway's RSS is read from /proc/<pid>/status
// every second; its live heap (after a full collection, heap-probe.mjs) every
// few seconds.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { loadClientFromKubeconfig } from './load-client.ts';
import { runLoadScenario, type LoadTenant, type ScenarioResult } from './load-scenario.ts';
import { slowWatch, startBulkWriter, type SlowWatchOutcome } from './slow-watch.ts';

/** Node flags that load heap-probe.mjs into the gateway child: pass them before bin/warren. */
export const HEAP_PROBE_FLAGS = ['--expose-gc', `--import=${new URL('./heap-probe.mjs', import.meta.url).href}`];

export interface MemorySample {
  /** Milliseconds since the load started (negative: the idle baseline before it). */
  atMs: number;
  rssBytes: number;
}

export interface HeapProbe {
  atMs: number;
  /** V8 heap in use right after a full collection. */
  heapUsedBytes: number;
  /** Memory outside the V8 heap that JS objects hold (Buffers: socket and TLS data). */
  externalBytes: number;
}

export interface SoakOptions {
  tenants: LoadTenant[];
  clients: number;
  durationMs: number;
  gatewayPid: number;
  /** Probe the live heap (the gateway runs with HEAP_PROBE_FLAGS) every this many ms; 0: never. Default 5 s. */
  heapProbeEveryMs?: number;
  /** Slow watchers stalled at once (a new round starts when a round has drained). */
  slowWatchers?: number;
  /** Each slow watcher stops reading until this many bytes were written to its namespace. */
  stallBytes?: number;
  bulkObjectBytes?: number;
  bulkIntervalMs?: number;
  baselineMs?: number;
  /**
   * Before the baseline, the bulk writer runs alone until it has written this
   * much (default 48 MiB), after a read that opens the gateway's shared cache:
   * the cache's event ring (32 MiB budget) is then full before anything is
   * measured, instead of filling during the run at whatever pace the machine allows.
   */
  warmBytes?: number;
  log?: (message: string) => void;
}

export interface SoakResult {
  load: ScenarioResult;
  samples: MemorySample[];
  heap: HeapProbe[];
  slow: SlowWatchOutcome[];
  bulkWrites: number;
  bulkBytes: number;
}

const SAMPLE_MS = 1000;

export async function runMemorySoak(options: SoakOptions): Promise<SoakResult> {
  const samples: MemorySample[] = [];
  const heap: HeapProbe[] = [];
  const probeEvery = options.heapProbeEveryMs ?? 5000;
  let origin = Date.now() + (options.baselineMs ?? 3000);
  const sample = (): void => { samples.push({ atMs: Date.now() - origin, rssBytes: readRssBytes(options.gatewayPid) }); };
  const probe = async (): Promise<void> => {
    if (probeEvery <= 0) return;
    const at = Date.now() - origin;
    const live = await probeLiveHeap(options.gatewayPid);
    heap.push({ atMs: at, heapUsedBytes: live.heapUsed, externalBytes: live.external });
  };
  const bulkTenant = options.tenants[0];
  if (!bulkTenant) throw new Error('no tenants');
  const bulkObjectBytes = options.bulkObjectBytes ?? 512 * 1024;
  await warmUp(bulkTenant.kubeconfig, bulkObjectBytes, options.warmBytes ?? 48 * 2 ** 20);
  origin = Date.now() + (options.baselineMs ?? 3000);
  const sampler = setInterval(sample, SAMPLE_MS);
  sample();
  let prober: NodeJS.Timeout | undefined;
  try {
    await probe();
    await sleep(origin - Date.now());
    origin = Date.now();
    if (probeEvery > 0) prober = setInterval(() => { void probe().catch((err: unknown) => options.log?.(`heap probe: ${String(err)}`)); }, probeEvery);
    const deadline = origin + options.durationMs;
    const bulk = await startBulkWriter({ kubeconfig: bulkTenant.kubeconfig, namespace: 'bulk', objectBytes: bulkObjectBytes, intervalMs: options.bulkIntervalMs ?? 125, deadline });
    const slow: SlowWatchOutcome[] = [];
    const slowRounds = (async () => {
      while (Date.now() < deadline) {
        const round = await Promise.all(Array.from({ length: options.slowWatchers ?? 3 }, () => slowWatch({
          kubeconfig: bulkTenant.kubeconfig,
          path: '/api/v1/namespaces/bulk/configmaps?watch=1&timeoutSeconds=600',
          produced: bulk.produced,
          stallBytes: options.stallBytes ?? 16 * 2 ** 20,
          deadline,
        })));
        slow.push(...round);
        options.log?.(`slow watchers: ${round.map((r) => `${r.outcome} ${mib(r.receivedBytes)}/${mib(r.sentBytes)} MiB`).join(', ')}`);
        if (round.every((r) => r.outcome === 'refused')) await sleep(1000);
      }
    })();
    const load = await runLoadScenario({ tenants: options.tenants, clients: options.clients, durationMs: options.durationMs, namespace: 'soak' });
    clearInterval(prober);
    clearInterval(sampler);
    sample();
    await probe();
    await Promise.all([bulk.done, slowRounds]);
    return { load, samples, heap, slow, bulkWrites: bulk.writes(), bulkBytes: bulk.produced() };
  } finally {
    clearInterval(sampler);
    clearInterval(prober);
  }
}

async function warmUp(kubeconfig: string, objectBytes: number, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  const reader = await loadClientFromKubeconfig(kubeconfig, 1);
  try {
    // A LIST in one namespace opens the resource's shared cache in the background (and is forwarded).
    await reader.request('GET', '/api/v1/namespaces/default/configmaps');
    await sleep(2000);
    await reader.request('GET', '/api/v1/namespaces/default/configmaps');
  } finally {
    reader.close();
  }
  const writer = await startBulkWriter({ kubeconfig, namespace: 'bulk', objectBytes, intervalMs: 0, deadline: Date.now() + 120_000, untilBytes: bytes });
  await writer.done;
}

/** Asks a gateway started with HEAP_PROBE_FLAGS for a full collection and its live heap. */
export async function probeLiveHeap(pid: number, timeoutMs = 10_000): Promise<{ heapUsed: number; external: number }> {
  const file = join(tmpdir(), `warren-heap-probe-${String(pid)}.json`);
  const read = (): { seq: number; heapUsed: number; external: number } | undefined => {
    try {
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { seq: number; heapUsed: number; external: number }) : undefined;
    } catch {
      return undefined; // caught between write and rename
    }
  };
  const before = read()?.seq ?? 0;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = read();
    if (now && now.seq > before) return now;
    if (Date.now() > deadline) throw new Error(`no heap probe from pid ${String(pid)} in ${String(timeoutMs)} ms (started without HEAP_PROBE_FLAGS?)`);
    await sleep(50);
  }
}

/** Removes the probe's file if the gateway did not (killed). */
export function forgetHeapProbe(pid: number): void {
  rmSync(join(tmpdir(), `warren-heap-probe-${String(pid)}.json`), { force: true });
}

export interface Trend {
  /** Median RSS over the idle baseline, the window around the half, and the last tenth (MiB). */
  startMiB: number;
  midMiB: number;
  endMiB: number;
  firstHalfGrowthMiB: number;
  secondHalfGrowthMiB: number;
  /** Least-squares slope of RSS over the second half, MiB per minute. */
  secondHalfSlopeMiBPerMin: number;
  peakMiB: number;
  /** Live heap (after a full collection): idle, around the half, over the last fifth (medians, MiB). */
  heapStartMiB: number;
  heapMidMiB: number;
  heapEndMiB: number;
  /** Least-squares slope of the live heap over the second half, MiB per minute. */
  heapSecondHalfSlopeMiBPerMin: number;
}

/** RSS and live-heap trend of a soak that ran for `durationMs` after its baseline. */
export function trendOf(samples: readonly MemorySample[], heap: readonly HeapProbe[], durationMs: number): Trend {
  const within = <T extends { atMs: number }>(list: readonly T[], from: number, to: number): T[] => list.filter((s) => s.atMs >= from * durationMs && (to >= 1 || s.atMs <= to * durationMs));
  const rss = (list: MemorySample[]): number => median(list.map((s) => s.rssBytes)) / 2 ** 20;
  const live = (list: HeapProbe[]): number => median(list.map((s) => s.heapUsedBytes)) / 2 ** 20;
  const startMiB = rss(samples.filter((s) => s.atMs < 0));
  const midMiB = rss(within(samples, 0.45, 0.55));
  const endMiB = rss(within(samples, 0.9, 1.0));
  const heapStartMiB = live(heap.filter((s) => s.atMs < 0));
  const heapMidMiB = live(within(heap, 0.4, 0.6));
  const heapEndMiB = live(within(heap, 0.8, 1.0));
  return {
    startMiB,
    midMiB,
    endMiB,
    firstHalfGrowthMiB: midMiB - startMiB,
    secondHalfGrowthMiB: endMiB - midMiB,
    secondHalfSlopeMiBPerMin: slope(within(samples, 0.5, 1.0).map((s) => [s.atMs / 60_000, s.rssBytes / 2 ** 20])),
    peakMiB: Math.max(...samples.map((s) => s.rssBytes)) / 2 ** 20,
    heapStartMiB,
    heapMidMiB,
    heapEndMiB,
    heapSecondHalfSlopeMiBPerMin: slope(within(heap, 0.5, 1.0).map((s) => [s.atMs / 60_000, s.heapUsedBytes / 2 ** 20])),
  };
}

export interface GatewayMetrics {
  /** Watches open through the gateway (sum of warren_gateway_open_watches). */
  openWatches: number;
}

/** Reads the gateway's /metrics as a platform admin (`warren admin token`). */
export async function gatewayMetricsReader(tenantKubeconfig: string, adminToken: string): Promise<() => Promise<GatewayMetrics>> {
  const kc = new KubeConfig();
  kc.loadFromString(tenantKubeconfig);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const tls: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const url = new URL('/metrics', cluster.server);
  return () => new Promise((resolve, reject) => {
    const req = https.get(url, { ...(tls.ca ? { ca: tls.ca } : {}), agent: false, headers: { Authorization: `Bearer ${adminToken}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`/metrics: ${String(res.statusCode)} ${body.slice(0, 200)}`));
        resolve({ openWatches: metricSum(body, 'warren_gateway_open_watches') });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('/metrics timed out')));
    req.on('error', reject);
  });
}

/** Sum of a metric's series in the Prometheus text format. */
export function metricSum(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) * 1024;
}

export function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const m = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[m] ?? NaN) : ((sorted[m - 1] ?? NaN) + (sorted[m] ?? NaN)) / 2;
}

function slope(points: Array<[number, number]>): number {
  if (points.length < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
