// Noisy neighbour (issue 6): tenant "quiet" reads its ConfigMaps one request at
// a time, first alone, then while tenant "noisy" floods the gateway with far
// more concurrent requests than its share (default fairness: 20 seats, 50
// queued). Reported: quiet's p50/p99 both ways, the ratio (goal: p99 at most
// 2x), noisy's 429 share, and quiet's 429s (goal: none). The gateway is a
// `warren serve` child with default limits; both tenants are onboarded by it.
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { percentile, msSince } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';

const QUIET_REQUESTS = 1_500;
const WARMUP = 200;
const FLOOD_CONCURRENCY = 200;
const PATH = '/api/v1/namespaces/default/configmaps';

async function measureQuiet(client: BenchClient): Promise<{ samples: number[]; refused: number }> {
  const samples: number[] = [];
  let refused = 0;
  for (let i = 0; i < QUIET_REQUESTS; i++) {
    const start = process.hrtime.bigint();
    const reply = await client.drain(PATH);
    samples.push(msSince(start));
    if (reply.status === 429) refused++;
  }
  return { samples, refused };
}

/** Floods until stop() is called; counts answers by status. */
function flood(client: BenchClient): { stop(): Promise<Map<number, number>> } {
  const codes = new Map<number, number>();
  let running = true;
  const worker = async (): Promise<void> => {
    while (running) {
      const reply = await client.drain(PATH).catch(() => ({ status: 0 }));
      codes.set(reply.status, (codes.get(reply.status) ?? 0) + 1);
    }
  };
  const workers = Array.from({ length: FLOOD_CONCURRENCY }, worker);
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      return codes;
    },
  };
}

export const fairnessSuite: Suite = {
  name: 'fairness',
  method: 'quiet tenant latency (sequential LISTs) alone and while a noisy tenant floods with 200 concurrent LISTs; warren serve child, default fairness limits',
  async run(env) {
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: env.serverNodeFlags });
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    const [noisy, quiet] = [await stack.createTenant('noisy'), await stack.createTenant('quiet')];
    const quietClient = clientFromKubeconfig(quiet.kubeconfig, 2);
    const noisyClient = clientFromKubeconfig(noisy.kubeconfig, FLOOD_CONCURRENCY);
    try {
      for (let i = 0; i < WARMUP; i++) await quietClient.drain(PATH);
      const alone = await measureQuiet(quietClient);
      const flooding = flood(noisyClient);
      const crowded = await measureQuiet(quietClient);
      const codes = await flooding.stop();
      const noisyTotal = [...codes.values()].reduce((a, b) => a + b, 0);
      const p = (s: number[], q: number): number => percentile(s, q);
      const ratio = p(crowded.samples, 99) / p(alone.samples, 99);
      rows.push(
        { metric: 'quiet p50, alone', unit: 'ms', gateway: p(alone.samples, 50) },
        { metric: 'quiet p99, alone', unit: 'ms', gateway: p(alone.samples, 99) },
        { metric: 'quiet p50, noisy flooding', unit: 'ms', gateway: p(crowded.samples, 50) },
        { metric: 'quiet p99, noisy flooding', unit: 'ms', gateway: p(crowded.samples, 99) },
        { metric: 'quiet p99 flooded / alone', unit: 'x', gateway: ratio, goal: '<= 2', pass: ratio <= 2 },
        { metric: 'quiet 429s', unit: 'requests', gateway: alone.refused + crowded.refused, goal: '0', pass: alone.refused + crowded.refused === 0 },
        { metric: 'noisy answered 429', unit: '%', gateway: noisyTotal ? (100 * (codes.get(429) ?? 0)) / noisyTotal : 0 },
      );
      notes.push(`noisy tenant answers by status: ${[...codes].map(([code, n]) => `${code}: ${n}`).join(', ')}`);
      env.log(`fairness: quiet p99 ${p(alone.samples, 99).toFixed(1)} ms alone, ${p(crowded.samples, 99).toFixed(1)} ms with noisy flooding (${ratio.toFixed(2)}x)`);
    } finally {
      quietClient.close();
      noisyClient.close();
      await stack.stop();
    }
    process.stdout.write(`\nFairness (noisy neighbour, warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes: [...notes, `${rows.filter((r) => r.pass === false).length} of ${rows.filter((r) => r.pass !== undefined).length} fairness goals failed; table above`] };
  },
};
