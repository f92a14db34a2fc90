// Heavy bodies (break 5, ADR 0026): tenant "quiet" reads one ConfigMap at a
// time (a one-object GET, from its own worker thread), first alone, then while
// tenant "heavy" writes, two at a time, its largest bodies: (a) the largest an
// object may be and still be accepted (10,000 labels, the most members an
// object may have, and ~1 MB of data in 9,000 keys, under: kube's ConfigMap limit),
// PUT over and over, alternating two versions so that every PUT is a real write; (b) the attack's body, 200,000 labels in ~3 MB, refused
// by the gateway before it is parsed. Reported: quiet's p50/p99 each way and
// the ratio to alone (goal: p99 at most 100 ms above alone), heavy's answers.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMeter } from '../process-cpu.ts';
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';
import { startQuietClient } from './fairness.ts';

const QUIET_REQUESTS = 400;
/** A phase ends after QUIET_REQUESTS samples or this long, whichever comes first: minutes, not half an hour, on a loaded machine. */
const PHASE_MS = 90_000;
const WARMUP = 100;
const PROBE = fileURLToPath(new URL('../targets/loop-stall-probe.mjs', import.meta.url));
const HEAVY_CONCURRENCY = 2;
const QUIET_PATH = '/api/v1/namespaces/default/configmaps/quiet';
const HEAVY_PATH = '/api/v1/namespaces/default/configmaps';

/**
 * The largest ConfigMap the gateway and the upstream accept: at the member limit, ~1 MiB of data.
 * `variant` changes one data value (same size), so that PUTs alternating between two variants are
 * real writes (a new resourceVersion, a watch event to every informer of ConfigMaps, the engine's
 * among them), not no-ops the upstream answers with the stored object.
 */
function largestAccepted(variant = 0): string {
  const labels: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) {
    labels[`k${i.toString(36)}`] = 'v';
    if (i < 9_000) data[`d${i.toString(36)}`] = (i === 0 ? String(variant) : 'x').repeat(100);
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'heavy', labels }, data });
}

/** The attack's body: 200,000 labels, ~3 MB. */
function attackBody(): string {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 200_000; i++) labels[`k${i.toString(36)}`] = 'v';
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'attack', labels }, data: { x: 'y'.repeat(500_000) } });
}

function writeLoop(client: BenchClient, method: 'PUT' | 'POST', path: string, bodies: string[]): { stop(): Promise<Map<number, number>> } {
  const codes = new Map<number, number>();
  let running = true;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (running) {
      const body = bodies[sent++ % bodies.length] ?? '';
      const reply = await client.request(method, path, body).catch(() => ({ status: 0 }));
      codes.set(reply.status, (codes.get(reply.status) ?? 0) + 1);
    }
  };
  const workers = Array.from({ length: HEAVY_CONCURRENCY }, worker);
  return { async stop() { running = false; await Promise.all(workers); return codes; } };
}

type QuietClient = Awaited<ReturnType<typeof startQuietClient>>;

/** Quiet's samples, in batches of 50, until QUIET_REQUESTS or PHASE_MS; the phase's wall-clock bounds for the stall probes. */
async function measurePhase(quiet: QuietClient): Promise<{ samples: number[]; from: number; to: number }> {
  const from = Date.now();
  const samples: number[] = [];
  while (samples.length < QUIET_REQUESTS && Date.now() - from < PHASE_MS) samples.push(...(await quiet.measure(50)).samples);
  return { samples, from, to: Date.now() };
}

interface Stall {
  /** The longest wall-clock gap between the probe's ticks: what a request waited, load included. */
  wall: number;
  /** The most CPU the process used within one gap: the synchronous stretch's own cost, whatever the load. */
  cpu: number;
}

/** The longest loop stalls of each probed process in [from, to], by pid (loop-stall-probe.mjs writes DIR/<pid>.tsv). */
function stallsIn(dir: string, from: number, to: number): Map<number, Stall> {
  const out = new Map<number, Stall>();
  for (const file of readdirSync(dir)) {
    const stall = { wall: 0, cpu: 0 };
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const [at, wall, cpu] = line.split('\t').map(Number);
      if (at === undefined || wall === undefined || cpu === undefined || at < from || at > to + 100) continue;
      stall.wall = Math.max(stall.wall, wall);
      stall.cpu = Math.max(stall.cpu, cpu);
    }
    out.set(Number(file.replace(/\.tsv$/, '')), stall);
  }
  return out;
}

export const heavyBodySuite: Suite = {
  name: 'heavy-body',
  // Starts its own gateway stack: the writes seed (minutes on a loaded machine) and the shared targets are not used.
  standalone: true,
  method: `quiet tenant one-object GET p50/p99 alone and while a heavy tenant writes ${String(HEAVY_CONCURRENCY)} at a time its largest accepted ConfigMap (10,000 labels, 9,000 data keys, ~1.07 MB; PUT) or the attack's 200,000-label 3 MB body (POST, refused); warren serve child, embedded upstream child; each phase ${String(QUIET_REQUESTS)} samples or ${String(PHASE_MS / 1000)} s; each process's longest event-loop stall and CPU per phase`,
  async run(env) {
    // Each server child records its loop stalls (loop-stall-probe.mjs); the children read the directory from the environment at spawn.
    const stallDir = mkdtempSync(join(tmpdir(), 'warren-heavy-stalls-'));
    const saved = process.env.WARREN_BENCH_STALL_DIR;
    process.env.WARREN_BENCH_STALL_DIR = stallDir;
    const probe = [`--import=${PROBE}`];
    // --profile profiles both the gateway and its upstream (the embedded apiserver): quiet's GET waits in both.
    let stack: Awaited<ReturnType<typeof startGatewayStack>>;
    try {
      stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: [...env.serverNodeFlags, ...probe], upstreamNodeFlags: [...env.serverNodeFlags, ...probe] });
    } finally {
      if (saved === undefined) delete process.env.WARREN_BENCH_STALL_DIR;
      else process.env.WARREN_BENCH_STALL_DIR = saved;
    }
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    const gatewayPid = stack.gateway.pid;
    const upstreamPid = stack.upstream.process.pid;
    const p = (s: number[], q: number): number => percentile(s, q);
    const processRows = (label: string, phase: { from: number; to: number }, cpu: Record<string, number>): GatewayRow[] => {
      const stalls = stallsIn(stallDir, phase.from, phase.to);
      const seconds = (phase.to - phase.from) / 1000;
      return [
        { metric: `${label}: gateway loop, longest stall (wall)`, unit: 'ms', gateway: stalls.get(gatewayPid)?.wall ?? Number.NaN },
        { metric: `${label}: gateway loop, longest stall (its CPU)`, unit: 'ms', gateway: stalls.get(gatewayPid)?.cpu ?? Number.NaN },
        { metric: `${label}: upstream loop, longest stall (wall)`, unit: 'ms', gateway: stalls.get(upstreamPid)?.wall ?? Number.NaN },
        { metric: `${label}: upstream loop, longest stall (its CPU)`, unit: 'ms', gateway: stalls.get(upstreamPid)?.cpu ?? Number.NaN },
        { metric: `${label}: gateway CPU`, unit: '% of a core', gateway: (100 * (cpu.gateway ?? 0)) / seconds },
        { metric: `${label}: upstream CPU`, unit: '% of a core', gateway: (100 * (cpu.upstream ?? 0)) / seconds },
      ];
    };
    try {
      const [heavy, quiet] = [await stack.createTenant('heavy'), await stack.createTenant('quiet')];
      const setup = clientFromKubeconfig(quiet.kubeconfig, 1);
      await setup.request('POST', HEAVY_PATH, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'quiet' }, data: { a: 'b' } }));
      setup.close();
      const heavyClient = clientFromKubeconfig(heavy.kubeconfig, HEAVY_CONCURRENCY);
      const created = await heavyClient.request('POST', HEAVY_PATH, largestAccepted());
      notes.push(`largest accepted body: ${String(Buffer.byteLength(largestAccepted()))} bytes, created with ${String(created.status)}`);
      const quietClient = await startQuietClient(quiet.kubeconfig, QUIET_PATH);
      const groups = { gateway: [gatewayPid], upstream: [upstreamPid] };
      try {
        await quietClient.measure(WARMUP);
        let meter = cpuMeter(groups);
        const alone = await measurePhase(quietClient);
        rows.push(
          { metric: 'quiet GET p50, alone', unit: 'ms', gateway: p(alone.samples, 50) },
          { metric: 'quiet GET p99, alone', unit: 'ms', gateway: p(alone.samples, 99) },
          ...processRows('alone', alone, meter.read()),
        );
        env.log(`heavy-body (alone): quiet p99 ${p(alone.samples, 99).toFixed(1)} ms over ${String(alone.samples.length)} samples`);
        // PUTs without a resourceVersion: each replaces the stored object (a 409 would make them cheap refusals).
        const cases: Array<{ label: string; method: 'PUT' | 'POST'; path: string; bodies: string[] }> = [
          { label: 'largest accepted body (PUT)', method: 'PUT', path: `${HEAVY_PATH}/heavy`, bodies: [largestAccepted(1), largestAccepted(2)] },
          { label: "attack's 200,000 labels (refused)", method: 'POST', path: HEAVY_PATH, bodies: [attackBody()] },
        ];
        for (const c of cases) {
          const loadBefore = loadavg()[0] ?? 0;
          const loop = writeLoop(heavyClient, c.method, c.path, c.bodies);
          meter = cpuMeter(groups);
          const crowded = await measurePhase(quietClient);
          const cpu = meter.read();
          const codes = await loop.stop();
          const seconds = (crowded.to - crowded.from) / 1000;
          const added = p(crowded.samples, 99) - p(alone.samples, 99);
          rows.push(
            { metric: `${c.label}: quiet GET p50`, unit: 'ms', gateway: p(crowded.samples, 50) },
            { metric: `${c.label}: quiet GET p99`, unit: 'ms', gateway: p(crowded.samples, 99) },
            { metric: `${c.label}: quiet p99 / alone`, unit: 'x', gateway: p(crowded.samples, 99) / p(alone.samples, 99) },
            { metric: `${c.label}: quiet p99 added`, unit: 'ms', gateway: added, goal: '<= 100', pass: added <= 100 },
            { metric: `${c.label}: quiet max`, unit: 'ms', gateway: Math.max(...crowded.samples) },
            { metric: `${c.label}: quiet samples`, unit: 'requests', gateway: crowded.samples.length },
            { metric: `${c.label}: heavy writes answered`, unit: 'req/s', gateway: [...codes.values()].reduce((a, b) => a + b, 0) / seconds },
            ...processRows(c.label, crowded, cpu),
          );
          notes.push(`${c.label}: heavy answers by status: ${[...codes].map(([code, n]) => `${String(code)}: ${String(n)}`).join(', ')}; 1-min load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after`);
          env.log(`heavy-body (${c.label}): quiet p99 ${p(alone.samples, 99).toFixed(1)} ms alone, ${p(crowded.samples, 99).toFixed(1)} ms crowded (${String(crowded.samples.length)} samples)`);
        }
      } finally {
        await quietClient.close();
        heavyClient.close();
      }
    } finally {
      await stack.stop();
      rmSync(stallDir, { recursive: true, force: true });
    }
    process.stdout.write(`\nHeavy bodies (warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes: [...notes, `${String(rows.filter((r) => r.pass === false).length)} of ${String(rows.filter((r) => r.pass !== undefined).length)} heavy-body goals failed; table above`] };
  },
};
