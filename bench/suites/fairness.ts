// Noisy neighbour (issue 6): tenant "quiet" reads its ConfigMaps one request at
// a time, first alone, then while tenant "noisy" floods the gateway with far
// more concurrent requests than its share (default fairness: 20 seats, 50
// queued). Reported: quiet's p50/p99 both ways, the ratio (goal: p99 at most
// 2x), noisy's 429 share, and quiet's 429s (goal: none). The gateway is a
// `warren serve` child; both tenants are onboarded by it. Measured six
// times, back to back: the default (the flooder paced while quiet is active,
// gateway-wide seats that follow latency, at most 600, at most 16 TLS
// handshakes at once, refused connections held for a spread ½-1 Retry-After
// and while their tenant's queue is full, the pacer's slow start capped
// after a decrease), the same with the slow start never capped, the
// previous default (none of the last four), adaptive seats without pacing,
// the old default (600 fixed seats, kube's figure), and fixed seats capped
// to what this machine serves (2 per CPU): on a CPU-bound gateway, the quiet
// tenant's latency grows with how many of the noisy tenant's requests are in
// flight beside it.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';

const QUIET_REQUESTS = 1_500;
const WARMUP = 200;
const FLOOD_CONCURRENCY = 200;
const PATH = '/api/v1/namespaces/default/configmaps';

// Quiet's client runs on its own event loop (a worker thread): in the bench's
// main thread it would wait behind the flooder's 200 connections, which a
// real quiet tenant, on another machine, never does. The worker runs
// `count` sequential LISTs per message and posts back latencies and 429s.
const QUIET_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
// An eval'd worker does not inherit tsx's loader: register it before importing TypeScript.
import(workerData.tsxUrl).then((tsx) => { tsx.register(); return import(workerData.clientUrl); }).then(({ clientFromKubeconfig }) => {
  const client = clientFromKubeconfig(workerData.kubeconfig, 2);
  parentPort.on('message', async (count) => {
    if (count === 0) { client.close(); parentPort.close(); return; }
    const samples = [];
    const startedAt = [];
    let refused = 0;
    for (let i = 0; i < count; i++) {
      const start = process.hrtime.bigint();
      const reply = await client.drain(workerData.path);
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
      startedAt.push(Number(start) / 1e6);
      if (reply.status === 429) refused++;
    }
    parentPort.postMessage({ samples, startedAt, refused });
  });
  parentPort.postMessage('ready');
});
`;

interface QuietClient {
  /** Latencies (ms), when each request started (ms on process.hrtime's clock, shared by all threads), and 429s. */
  measure(count: number): Promise<{ samples: number[]; startedAt: number[]; refused: number }>;
  close(): Promise<void>;
}

export async function startQuietClient(kubeconfig: string, path = PATH): Promise<QuietClient> {
  const worker = new Worker(QUIET_WORKER, { eval: true, workerData: {
    kubeconfig, path, clientUrl: new URL('../http-client.ts', import.meta.url).href, tsxUrl: import.meta.resolve('tsx/esm/api'),
  } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    measure: (count) => new Promise((resolve, reject) => {
      // The error listener goes with its answer: callers that measure in batches would pile them up.
      worker.once('message', (answer: Awaited<ReturnType<QuietClient['measure']>>) => { worker.off('error', reject); resolve(answer); });
      worker.once('error', reject);
      worker.postMessage(count);
    }),
    async close() {
      worker.postMessage(0);
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

/**
 * Floods until stop() is called, ignoring Retry-After (a misbehaving client);
 * counts answers by status.
 */
export function flood(client: BenchClient, path = PATH, concurrency = FLOOD_CONCURRENCY): { stop(): Promise<Map<number, number>> } {
  const codes = new Map<number, number>();
  let running = true;
  const worker = async (): Promise<void> => {
    while (running) {
      const reply = await client.drain(path).catch(() => ({ status: 0 }));
      codes.set(reply.status, (codes.get(reply.status) ?? 0) + 1);
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      return codes;
    },
  };
}

interface Config {
  label: string;
  /** WARREN_* settings for the gateway child (its config comes from the environment at spawn). */
  env: Record<string, string>;
}

/** The seats a CPU-bound gateway serves without queueing inside itself: 2 per CPU. */
export const MACHINE_SEATS = 2 * os.availableParallelism();

async function measureConfig(env: Parameters<Suite['run']>[0], config: Config): Promise<{ rows: GatewayRow[]; note: string }> {
  const saved = Object.fromEntries(Object.keys(config.env).map((k) => [k, process.env[k]]));
  // The child reads its config from the environment at spawn; restored at once.
  Object.assign(process.env, config.env);
  let stack: Awaited<ReturnType<typeof startGatewayStack>>;
  try {
    stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: env.serverNodeFlags });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const [noisy, quiet] = [await stack.createTenant('noisy'), await stack.createTenant('quiet')];
  const quietClient = await startQuietClient(quiet.kubeconfig);
  const noisyClient = clientFromKubeconfig(noisy.kubeconfig, FLOOD_CONCURRENCY);
  try {
    await quietClient.measure(WARMUP);
    const alone = await quietClient.measure(QUIET_REQUESTS);
    const flooding = flood(noisyClient);
    const floodStart = performance.now();
    const floodStartHr = Number(process.hrtime.bigint()) / 1e6;
    env.log(`fairness (${config.label}): flood starts at ${new Date().toISOString()}`);
    const crowded = await quietClient.measure(QUIET_REQUESTS);
    const codes = await flooding.stop();
    const floodSeconds = (performance.now() - floodStart) / 1000;
    const noisyTotal = [...codes.values()].reduce((a, b) => a + b, 0);
    const p = (s: number[], q: number): number => percentile(s, q);
    const ratio = p(crowded.samples, 99) / p(alone.samples, 99);
    const c = config.label;
    const onset = onsetShare(crowded, floodStartHr, p(crowded.samples, 99));
    // FAIRNESS_SAMPLES_DIR=dir: quiet's flooded samples (ms since the flood began, latency ms), one per line, to line up with a gateway trace.
    const samplesDir = process.env.FAIRNESS_SAMPLES_DIR;
    if (samplesDir) writeFileSync(join(samplesDir, `quiet-${c.replace(/\W+/g, '-')}.tsv`), crowded.samples.map((ms, i) => `${((crowded.startedAt[i] ?? 0) - floodStartHr).toFixed(1)}\t${ms.toFixed(2)}`).join('\n'));
    env.log(`fairness (${c}): of quiet's ${String(onset.slow)} flooded samples at or above p99, ${String(onset.inOnset)} started in the flood's first ${String(ONSET_MS)} ms; p99 after it ${onset.p99After.toFixed(1)} ms`);
    env.log(`fairness (${c}): quiet p99 ${p(alone.samples, 99).toFixed(1)} ms alone, ${p(crowded.samples, 99).toFixed(1)} ms with noisy flooding (${ratio.toFixed(2)}x)`);
    return {
      rows: [
        { metric: `${c}: quiet p50, alone`, unit: 'ms', gateway: p(alone.samples, 50) },
        { metric: `${c}: quiet p99, alone`, unit: 'ms', gateway: p(alone.samples, 99) },
        { metric: `${c}: quiet p50, noisy flooding`, unit: 'ms', gateway: p(crowded.samples, 50) },
        { metric: `${c}: quiet p99, noisy flooding`, unit: 'ms', gateway: p(crowded.samples, 99) },
        { metric: `${c}: quiet p99 flooded / alone`, unit: 'x', gateway: ratio, goal: '<= 2', pass: ratio <= 2 },
        { metric: `${c}: quiet 429s`, unit: 'requests', gateway: alone.refused + crowded.refused, goal: '0', pass: alone.refused + crowded.refused === 0 },
        { metric: `${c}: noisy answered 429`, unit: '%', gateway: noisyTotal ? (100 * (codes.get(429) ?? 0)) / noisyTotal : 0 },
        { metric: `${c}: noisy served (200) while quiet ran`, unit: 'req/s', gateway: (codes.get(200) ?? 0) / floodSeconds },
      ],
      note: `${c}: noisy tenant answers by status: ${[...codes].map(([code, n]) => `${code}: ${n}`).join(', ')}`,
    };
  } finally {
    await quietClient.close();
    noisyClient.close();
    await stack.stop();
  }
}

const ONSET_MS = 1_000;

/** Where quiet's slowest flooded requests fall: how many started in the flood's first ONSET_MS, and the p99 of those after it. */
function onsetShare(run: { samples: number[]; startedAt: number[] }, floodStart: number, p99: number): { slow: number; inOnset: number; p99After: number } {
  let slow = 0;
  let inOnset = 0;
  const after: number[] = [];
  run.samples.forEach((ms, i) => {
    const early = (run.startedAt[i] ?? 0) - floodStart < ONSET_MS;
    if (!early) after.push(ms);
    if (ms < p99) return;
    slow++;
    if (early) inOnset++;
  });
  return { slow, inOnset, p99After: after.length > 0 ? percentile(after, 99) : 0 };
}

export const fairnessSuite: Suite = {
  name: 'fairness',
  method: `quiet tenant latency (sequential LISTs) alone and while a noisy tenant floods with 200 concurrent LISTs ignoring Retry-After; warren serve child, back to back: flooder paced + adaptive gateway-wide seats + handshake gate + spread holds, held while the queue is full (the default), the same with the pacer's slow start never capped, the previous default (none of those four), adaptive seats without pacing, 600 fixed seats (the old default), ${String(MACHINE_SEATS)} fixed seats (2 per CPU)`,
  async run(env) {
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    // A 429 share and noisy's served rate go with each: pacing trades the flooder's throughput for quiet's latency.
    const configs: Config[] = [
      { label: 'paced flooder + adaptive seats', env: {} },
      // The pacer's slow start never capped (its rule before ADR 0017's measurement); all else the default.
      { label: 'uncapped slow start (otherwise the default)', env: { WARREN_FAIRNESS_PACING_SLOW_START_HOLD_WINDOWS: '0' } },
      // The default before the handshake gate and spread holds (ADR 0017): pacing and adaptive seats alone.
      { label: 'previous default (no handshake gate, fixed hold)', env: { WARREN_FAIRNESS_CONCURRENT_HANDSHAKES: '0', WARREN_FAIRNESS_HOLD_SPREAD: '0', WARREN_FAIRNESS_HOLD_WHILE_QUEUE_FULL: 'false', WARREN_FAIRNESS_PACING_SLOW_START_HOLD_WINDOWS: '0' } },
      { label: 'adaptive seats, no pacing', env: { WARREN_FAIRNESS_PACING_ENABLED: 'false' } },
      { label: '600 fixed seats', env: { WARREN_FAIRNESS_ADAPTIVE_ENABLED: 'false', WARREN_FAIRNESS_PACING_ENABLED: 'false' } },
      { label: `${String(MACHINE_SEATS)} fixed seats`, env: { WARREN_FAIRNESS_ADAPTIVE_ENABLED: 'false', WARREN_FAIRNESS_PACING_ENABLED: 'false', WARREN_FAIRNESS_TOTAL_SEATS: String(MACHINE_SEATS) } },
    ];
    // FAIRNESS_CONFIGS=paced,adaptive picks some (labels starting with these words); the first is the default.
    const only = process.env.FAIRNESS_CONFIGS?.split(',').map((s) => s.trim()).filter(Boolean);
    for (const config of configs.filter((c) => !only || only.some((o) => c.label.startsWith(o)))) {
      const measured = await measureConfig(env, config);
      rows.push(...measured.rows);
      notes.push(measured.note);
    }
    process.stdout.write(`\nFairness (noisy neighbour, warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes: [...notes, `${rows.filter((r) => r.pass === false).length} of ${rows.filter((r) => r.pass !== undefined).length} fairness goals failed; table above`] };
  },
};
