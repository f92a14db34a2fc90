// Heavy bodies (break 5, ADR 0026): tenant "quiet" reads one ConfigMap at a
// time (a one-object GET, from its own worker thread), first alone, then while
// tenant "heavy" writes, two at a time, its largest bodies: (a) the largest an
// object may be and still be accepted (10,000 labels, the most members an
// object may have, and ~1 MB of data in 9,000 keys, under: kube's ConfigMap limit),
// PUT over and over, alternating two versions so that every PUT is a real write; (b) the attack's body, 200,000 labels in ~3 MB, refused
// by the gateway before it is parsed. Reported: quiet's p50/p99 each way and
// the ratio to alone (goal: p99 at most 100 ms above alone), heavy's answers.
import { loadavg } from 'node:os';
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';
import { startQuietClient } from './fairness.ts';

const QUIET_REQUESTS = 400;
const WARMUP = 100;
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

export const heavyBodySuite: Suite = {
  name: 'heavy-body',
  // Starts its own gateway stack: the writes seed (minutes on a loaded machine) and the shared targets are not used.
  standalone: true,
  method: `quiet tenant one-object GET p50/p99 alone and while a heavy tenant writes ${String(HEAVY_CONCURRENCY)} at a time its largest accepted ConfigMap (10,000 labels, 9,000 data keys, ~1.07 MB; PUT) or the attack's 200,000-label 3 MB body (POST, refused); warren serve child`,
  async run(env) {
    // --profile profiles both the gateway and its upstream (the embedded apiserver): quiet's GET waits in both.
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: env.serverNodeFlags, upstreamNodeFlags: env.serverNodeFlags });
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    try {
      const [heavy, quiet] = [await stack.createTenant('heavy'), await stack.createTenant('quiet')];
      const setup = clientFromKubeconfig(quiet.kubeconfig, 1);
      await setup.request('POST', HEAVY_PATH, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'quiet' }, data: { a: 'b' } }));
      setup.close();
      const heavyClient = clientFromKubeconfig(heavy.kubeconfig, HEAVY_CONCURRENCY);
      const created = await heavyClient.request('POST', HEAVY_PATH, largestAccepted());
      notes.push(`largest accepted body: ${String(Buffer.byteLength(largestAccepted()))} bytes, created with ${String(created.status)}`);
      const quietClient = await startQuietClient(quiet.kubeconfig, QUIET_PATH);
      try {
        await quietClient.measure(WARMUP);
        const alone = await quietClient.measure(QUIET_REQUESTS);
        const p = (s: number[], q: number): number => percentile(s, q);
        rows.push({ metric: 'quiet GET p50, alone', unit: 'ms', gateway: p(alone.samples, 50) }, { metric: 'quiet GET p99, alone', unit: 'ms', gateway: p(alone.samples, 99) });
        // PUTs without a resourceVersion: each replaces the stored object (a 409 would make them cheap refusals).
        const cases: Array<{ label: string; method: 'PUT' | 'POST'; path: string; bodies: string[] }> = [
          { label: 'largest accepted body (PUT)', method: 'PUT', path: `${HEAVY_PATH}/heavy`, bodies: [largestAccepted(1), largestAccepted(2)] },
          { label: "attack's 200,000 labels (refused)", method: 'POST', path: HEAVY_PATH, bodies: [attackBody()] },
        ];
        for (const c of cases) {
          const loadBefore = loadavg()[0] ?? 0;
          const loop = writeLoop(heavyClient, c.method, c.path, c.bodies);
          const started = performance.now();
          const crowded = await quietClient.measure(QUIET_REQUESTS);
          const codes = await loop.stop();
          const seconds = (performance.now() - started) / 1000;
          const added = p(crowded.samples, 99) - p(alone.samples, 99);
          rows.push(
            { metric: `${c.label}: quiet GET p50`, unit: 'ms', gateway: p(crowded.samples, 50) },
            { metric: `${c.label}: quiet GET p99`, unit: 'ms', gateway: p(crowded.samples, 99) },
            { metric: `${c.label}: quiet p99 / alone`, unit: 'x', gateway: p(crowded.samples, 99) / p(alone.samples, 99) },
            { metric: `${c.label}: quiet p99 added`, unit: 'ms', gateway: added, goal: '<= 100', pass: added <= 100 },
            { metric: `${c.label}: quiet max`, unit: 'ms', gateway: Math.max(...crowded.samples) },
            { metric: `${c.label}: heavy writes answered`, unit: 'req/s', gateway: [...codes.values()].reduce((a, b) => a + b, 0) / seconds },
          );
          notes.push(`${c.label}: heavy answers by status: ${[...codes].map(([code, n]) => `${String(code)}: ${String(n)}`).join(', ')}; 1-min load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after`);
          env.log(`heavy-body (${c.label}): quiet p99 ${p(alone.samples, 99).toFixed(1)} ms alone, ${p(crowded.samples, 99).toFixed(1)} ms crowded`);
        }
      } finally {
        await quietClient.close();
        heavyClient.close();
      }
    } finally {
      await stack.stop();
    }
    process.stdout.write(`\nHeavy bodies (warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes: [...notes, `${String(rows.filter((r) => r.pass === false).length)} of ${String(rows.filter((r) => r.pass !== undefined).length)} heavy-body goals failed; table above`] };
  },
};
