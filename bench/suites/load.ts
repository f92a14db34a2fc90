// Load (issue 6): the load tier's scenario (test/load/load-scenario.ts: tenant
// clients mixing GET, LIST, LIST by label, create, merge patch and short
// watches, honouring Retry-After) against a `warren serve` child with default
// fairness, five tenants onboarded by it. Stepped over client counts, each
// step for a few seconds, twice: alone, and while a sixth tenant floods with
// 200 concurrent LISTs ignoring Retry-After. Reported side by side: requests/s
// and p99 per step, and the most requests/s sustained with p99 under 100 ms.
import type { Suite } from '../suite.ts';
import { clientFromKubeconfig } from '../http-client.ts';
import { startGatewayStack, type ReadyTenant } from '../targets/gateway-stack.ts';
import { percentile } from '../stats.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';
import { flood } from './fairness.ts';
import { runLoadScenario, type LoadTenant } from '../../test/load/load-scenario.ts';

const STEPS = [2, 5, 10, 25, 50, 100, 200];
const STEP_MS = 8_000;
const TENANTS = 5;
const P99_GOAL_MS = 100;

interface Step {
  clients: number;
  perSecond: number;
  p99: number;
  codes: string;
}

async function stepThrough(env: Parameters<Suite['run']>[0], tenants: LoadTenant[], label: string, peak: () => void): Promise<Step[]> {
  const steps: Step[] = [];
  for (const clients of STEPS) {
    const r = await runLoadScenario({ tenants, clients, durationMs: STEP_MS, namespace: `load-${label}-${String(clients)}`, sample: peak });
    const all = [...r.latencies.values()].flat();
    const step = { clients, perSecond: r.requests / (r.elapsedMs / 1000), p99: percentile(all, 99), codes: [...r.codes].sort().map(([c, n]) => `${c}: ${String(n)}`).join(', ') };
    env.log(`load (${label}): ${String(clients)} clients, ${step.perSecond.toFixed(0)} req/s, p99 ${step.p99.toFixed(1)} ms (${step.codes})`);
    steps.push(step);
  }
  return steps;
}

/** The most requests/s among steps whose p99 stayed under the goal (0 if none did). */
function sustained(steps: Step[]): number {
  return Math.max(0, ...steps.filter((s) => s.p99 < P99_GOAL_MS).map((s) => s.perSecond));
}

export const loadSuite: Suite = {
  name: 'load',
  method: `test/load scenario (reads, writes, short watches; Retry-After honoured) over ${String(TENANTS)} tenants at ${STEPS.join('/')} clients, ${String(STEP_MS / 1000)} s each, alone and with a flooding neighbour (200 concurrent LISTs ignoring Retry-After); warren serve child, default fairness`,
  async run(env) {
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: env.serverNodeFlags });
    let peakKiB = 0;
    const peak = (): void => { peakKiB = Math.max(peakKiB, stack.gateway.memory().rssKiB); };
    const notes: string[] = [];
    let alone: Step[];
    let flooded: Step[];
    try {
      const ready: ReadyTenant[] = [];
      for (let i = 0; i < TENANTS; i++) ready.push(await stack.createTenant(`load${String(i)}`));
      const noisy = await stack.createTenant('flooder');
      const tenants = ready.map((t) => ({ name: t.name, kubeconfig: t.kubeconfig }));
      alone = await stepThrough(env, tenants, 'alone', peak);
      const noisyClient = clientFromKubeconfig(noisy.kubeconfig, 200);
      const flooding = flood(noisyClient, '/api/v1/namespaces/default/configmaps', 200);
      try {
        flooded = await stepThrough(env, tenants, 'flooded', peak);
      } finally {
        const codes = await flooding.stop();
        noisyClient.close();
        notes.push(`flooding neighbour answers by status: ${[...codes].map(([c, n]) => `${String(c)}: ${String(n)}`).join(', ')}`);
      }
      notes.push(...alone.map((s, i) => `${String(s.clients)} clients: alone ${s.codes}; flooded ${flooded[i]?.codes ?? ''}`));
    } finally {
      await stack.stop();
    }
    const rows: GatewayRow[] = [];
    for (const [i, s] of alone.entries()) {
      const f = flooded[i];
      rows.push({ metric: `${String(s.clients)} clients, alone: req/s`, unit: 'req/s', gateway: s.perSecond });
      rows.push({ metric: `${String(s.clients)} clients, alone: p99`, unit: 'ms', gateway: s.p99 });
      if (f) {
        rows.push({ metric: `${String(s.clients)} clients, flooded: req/s`, unit: 'req/s', gateway: f.perSecond });
        rows.push({ metric: `${String(s.clients)} clients, flooded: p99`, unit: 'ms', gateway: f.p99 });
      }
    }
    rows.push({ metric: `sustained with p99 < ${String(P99_GOAL_MS)} ms, alone`, unit: 'req/s', gateway: sustained(alone) });
    rows.push({ metric: `sustained with p99 < ${String(P99_GOAL_MS)} ms, flooded`, unit: 'req/s', gateway: sustained(flooded) });
    rows.push({ metric: 'gateway peak RSS (sampled)', unit: 'MiB', gateway: peakKiB / 1024 });
    process.stdout.write(`\nLoad (warren serve child)\n${renderGatewayText(rows)}\n`);
    return { rows: [], notes };
  },
};
