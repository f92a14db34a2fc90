// One tenant at its watch bound (ADR 0045, session 13's red team: 3,000
// watches of one tenant were all accepted and another tenant's GET took 5.9 s
// once). Tenant "quiet" reads one ConfigMap at a time (its own worker thread),
// first alone, then while tenant "hostile" holds as many watches as its
// bound lets it (fairness.defaults.longRunning, 1,000) and has been refused
// more. Reported: quiet's GET p50/p99 both ways, the gateway child's RSS
// before and at the bound, how many of hostile's watches were held and how
// many refused (429), and the 1-min load average beside the phases.
import { loadavg } from 'node:os';
import { clientFromKubeconfig } from '../http-client.ts';
import { percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';
import { startQuietClient } from './fairness.ts';
import { holdWatches } from './gateway-watches.ts';

const BOUND = 1_000;
const BEYOND = 200;
const QUIET_REQUESTS = 400;
const WARMUP = 100;
const SETTLE_MS = 3_000;
const QUIET_PATH = '/api/v1/namespaces/default/configmaps/quiet';
const WATCH_PATH = '/api/v1/namespaces/default/configmaps';
const mib = (kib: number): number => kib / 1024;
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

export const watchBoundSuite: Suite = {
  name: 'watch-bound',
  standalone: true,
  method: `quiet tenant one-object GET p50/p99 (${String(QUIET_REQUESTS)} samples) alone and while a hostile tenant holds its bound of ${String(BOUND)} watches (each its own TLS connection, opened 50 at a time) after ${String(BEYOND)} more were refused; warren serve child (default fairness), embedded upstream child; gateway VmRSS ${String(SETTLE_MS / 1000)} s after each step`,
  async run(env) {
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: env.serverNodeFlags, upstreamNodeFlags: env.serverNodeFlags });
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    const p = (s: number[], q: number): number => percentile(s, q);
    try {
      const [hostile, quiet] = [await stack.createTenant('hostile'), await stack.createTenant('quiet')];
      const setup = clientFromKubeconfig(quiet.kubeconfig, 1);
      await setup.request('POST', WATCH_PATH, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'quiet' }, data: { a: 'b' } }));
      setup.close();
      const quietClient = await startQuietClient(quiet.kubeconfig, QUIET_PATH);
      const hostileClient = clientFromKubeconfig(hostile.kubeconfig, 50);
      try {
        await quietClient.measure(WARMUP);
        await settle();
        const rssAlone = stack.gateway.memory().rssKiB;
        const loadAlone = loadavg()[0] ?? 0;
        const alone = (await quietClient.measure(QUIET_REQUESTS)).samples;
        const held = await holdWatches(hostileClient, WATCH_PATH, BOUND, 50);
        const codes = new Map<number, number>();
        const extra: Array<{ close(): void }> = [];
        for (let i = 0; i < BEYOND; i++) {
          const s = await hostileClient.stream(`${WATCH_PATH}?watch=1`, () => undefined);
          codes.set(s.status, (codes.get(s.status) ?? 0) + 1);
          extra.push(s);
        }
        await settle();
        const rssBound = stack.gateway.memory().rssKiB;
        const loadBound = loadavg()[0] ?? 0;
        const atBound = (await quietClient.measure(QUIET_REQUESTS)).samples;
        held.close();
        for (const s of extra) s.close();
        rows.push(
          { metric: 'quiet GET p50, alone', unit: 'ms', gateway: p(alone, 50) },
          { metric: 'quiet GET p99, alone', unit: 'ms', gateway: p(alone, 99) },
          { metric: 'quiet GET p50, hostile at its watch bound', unit: 'ms', gateway: p(atBound, 50) },
          { metric: 'quiet GET p99, hostile at its watch bound', unit: 'ms', gateway: p(atBound, 99) },
          { metric: 'hostile watches held', unit: 'watches', gateway: held.watches.length, goal: String(BOUND), pass: held.watches.length === BOUND },
          { metric: `hostile watches beyond the bound refused (of ${String(BEYOND)})`, unit: 'watches', gateway: codes.get(429) ?? 0, goal: String(BEYOND), pass: codes.get(429) === BEYOND },
          { metric: 'gateway RSS, quiet alone', unit: 'MiB', gateway: mib(rssAlone) },
          { metric: 'gateway RSS, hostile at its watch bound', unit: 'MiB', gateway: mib(rssBound) },
        );
        notes.push(`hostile's watches beyond the bound answered: ${[...codes].map(([code, n]) => `${String(code)}: ${String(n)}`).join(', ')}; ${String(BOUND)} opened in ${(held.openMs / 1000).toFixed(1)} s`);
        notes.push(`1-min load average: ${loadAlone.toFixed(1)} (alone), ${loadBound.toFixed(1)} (at the bound)`);
      } finally {
        await quietClient.close();
        hostileClient.close();
      }
    } finally {
      await stack.stop();
    }
    process.stdout.write(`\nWatch bound (warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes };
  },
};
