// The propagation engine under load (issue 5 "Performance"): Deployments
// written upstream for one tenant, duplicated by a PropagationPolicy to 10
// member apiservers; per (member, object) the time from the template write to
// its first ADDED on that member, the time until everything is applied,
// scheduling decisions per second, and fairness: a second tenant's single
// template written while the first tenant's 10,000 are in flight.
import { percentile } from '../stats.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import type { BenchClient } from '../http-client.ts';
import { clientFromKubeconfig } from '../http-client.ts';
import type { Suite } from '../suite.ts';
import type { ReadyTenant } from '../targets/gateway-stack.ts';
import { allowMembers, ensureTenantPlacement, startPropagationStack, type PropagationStack } from '../propagation-stack.ts';
import { nowMs, watchArrivals, watchFirst } from '../propagation-watch.ts';
import { renderPropagationText, writePropagationSection, type PropagationRow } from '../propagation-report.ts';

const MEMBERS = 10;
const WRITERS = 16;
/** Each scenario is cut off here, so a slow engine cannot hold the bench for long. */
const SCENARIO_CAP_MS = 180_000;
/** Fairness probes: tenant B writes one template when tenant A's writes reach these fractions. */
const PROBE_AT = [0.25, 0.5, 0.75, 1];
const TENANT_LABEL = 'tenancy.warren.dev/tenant';

function deployment(tenantId: string, namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name, namespace, labels: { [TENANT_LABEL]: tenantId, app: name } },
    spec: {
      replicas: 1, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  });
}

interface Placed { tenant: ReadyTenant; upstreamNs: string }

async function placeTenant(p: PropagationStack, tenant: ReadyTenant, ns: string): Promise<Placed> {
  await allowMembers(p.host, tenant.name, p.members.map((m) => m.name));
  await ensureTenantPlacement(tenant, ns, p.members.map((m) => m.name));
  return { tenant, upstreamNs: `${tenant.id}-${ns}` };
}

async function writeTemplate(host: BenchClient, placed: Placed, name: string): Promise<number> {
  const t = nowMs();
  expectStatus(await host.request('POST', `/apis/apps/v1/namespaces/${placed.upstreamNs}/deployments`, deployment(placed.tenant.id, placed.upstreamNs, name)), 201);
  return t;
}

/** One template of tenant B, timed from its write to its arrival on every member. */
async function probe(p: PropagationStack, memberClients: BenchClient[], placed: Placed, name: string): Promise<number> {
  const arrivals = await watchArrivals(memberClients, placed.upstreamNs);
  try {
    const t = await writeTemplate(p.host, placed, name);
    await arrivals.waitForAll([name], SCENARIO_CAP_MS);
    return Math.max(...arrivals.at.map((m) => (m.get(name) ?? NaN) - t));
  } finally {
    arrivals.close();
  }
}

async function scenario(p: PropagationStack, memberClients: BenchClient[], a: Placed, b: Placed | undefined, count: number, log: (m: string) => void): Promise<{ rows: PropagationRow[]; notes: string[] }> {
  const label = `${count.toLocaleString('en-US')} templates`;
  const names = Array.from({ length: count }, (_, i) => `web-${String(i).padStart(5, '0')}`);
  const arrivals = await watchArrivals(memberClients, a.upstreamNs);
  const bindings = await watchFirst([p.host], `/apis/work.karmada.io/v1alpha2/namespaces/${a.upstreamNs}/resourcebindings?watch=true&timeoutSeconds=900`,
    (_type, obj) => (obj.spec?.clusters?.length ?? 0) > 0);
  const written = new Map<string, number>();
  const probes: Array<Promise<number>> = [];
  const notes: string[] = [];
  let done = 0;
  const start = nowMs();
  try {
    const writes = await runConcurrent(WRITERS, count, async (i) => {
      const name = names[i] as string;
      if (nowMs() - start > SCENARIO_CAP_MS) return; // the cap holds for the write phase too
      written.set(name, await writeTemplate(p.host, a, name));
      done++;
      if (b && PROBE_AT.some((f) => Math.floor(f * count) === done)) probes.push(probe(p, memberClients, b, `probe-${count}-${done}`));
    });
    const writesPerSecond = (written.size / writes.elapsedMs) * 1000;
    log(`propagation: ${label}: ${written.size} written in ${(writes.elapsedMs / 1000).toFixed(1)} s (${writesPerSecond.toFixed(0)}/s)`);
    let complete = written.size === count;
    if (!complete) notes.push(`${label}: only ${written.size} templates were written within the ${SCENARIO_CAP_MS / 1000} s cap`);
    try {
      await arrivals.waitForAll([...written.keys()], Math.max(1, SCENARIO_CAP_MS - (nowMs() - start)));
    } catch {
      complete = false;
      const missing = written.size * MEMBERS - arrivals.at.reduce((n, m) => n + m.size, 0);
      notes.push(`${label}: ${missing} of ${written.size * MEMBERS} (member, object) pairs written were not applied when the cap ended the scenario; the latency figures are over what did arrive (so they understate the tail)`);
    }
    const arrived = arrivals.at.flatMap((m) => [...m.values()]);
    const lastArrival = arrived.length > 0 ? Math.max(...arrived) : NaN;
    const pairs: number[] = [];
    const perTemplate: number[] = [];
    for (const name of names) {
      const t = written.get(name) ?? NaN;
      const each = arrivals.at.map((m) => (m.get(name) ?? NaN) - t).filter((x) => !Number.isNaN(x));
      pairs.push(...each);
      if (each.length === MEMBERS) perTemplate.push(Math.max(...each));
    }
    const scheduled = [...(bindings.at[0]?.values() ?? [])];
    const decisionsPerSecond = scheduled.length === 0 ? 0 : scheduled.length / ((Math.max(...scheduled) - start) / 1000);
    const allMs = lastArrival - start;
    log(`propagation: ${label}: ${pairs.length} of ${count * MEMBERS} applied, last after ${(allMs / 1000).toFixed(1)} s`);
    const rows: PropagationRow[] = [
      { scenario: label, metric: 'template writes per second (upstream, 16 writers)', unit: '/s', value: writesPerSecond },
      { scenario: label, metric: `(member, object) pairs applied within the cap, of ${count * MEMBERS}`, unit: 'pairs', value: arrived.length },
      { scenario: label, metric: 'write -> applied on a member, p50 (per member, object)', unit: 'ms', value: percentile(pairs, 50) },
      { scenario: label, metric: 'write -> applied on a member, p99 (per member, object)', unit: 'ms', value: percentile(pairs, 99) },
      { scenario: label, metric: 'write -> applied on all 10 members, p50 (per template)', unit: 'ms', value: percentile(perTemplate, 50) },
      { scenario: label, metric: 'write -> applied on all 10 members, p99 (per template)', unit: 'ms', value: percentile(perTemplate, 99),
        ...(count === 1_000 ? { goal: '< 1,000 ms', pass: complete && percentile(perTemplate, 99) < 1_000 } : {}) },
      { scenario: label, metric: `first write -> all ${count * MEMBERS} applied`, unit: 's', value: complete ? allMs / 1000 : NaN,
        ...(count === 10_000 ? { goal: '< 60 s', pass: complete && allMs < 60_000 } : {}) },
      { scenario: label, metric: 'applied pairs per second (first write -> last applied)', unit: '/s', value: arrived.length === 0 ? 0 : pairs.length / (allMs / 1000) },
      { scenario: label, metric: 'scheduling decisions per second (bindings with clusters)', unit: '/s', value: decisionsPerSecond },
    ];
    if (probes.length > 0) {
      const probeMs = await Promise.all(probes);
      log(`propagation: ${label}: tenant B probes ${probeMs.map((m) => m.toFixed(0)).join(', ')} ms`);
      rows.push({ scenario: label, metric: `other tenant's single template -> all 10 members, worst of ${probeMs.length}`, unit: 'ms', value: Math.max(...probeMs) });
    }
    return { rows, notes };
  } finally {
    arrivals.close();
    bindings.close();
  }
}

/** The suite over these template counts; the fairness probes run in the largest. */
export function makePropagationSuite(counts: readonly number[]): Suite {
  const largest = Math.max(...counts);
  return { name: 'propagation', method: 'see the Propagation section of docs/benchmarks.md', run: async (env) => {
    const started = nowMs();
    const rows: PropagationRow[] = [];
    const notes: string[] = [];
    // A fresh stack per scenario: a backlog left by one must not be billed to the next.
    for (const count of counts) {
      const p = await startPropagationStack({ repoRoot: env.repoRoot, members: MEMBERS, engineNodeFlags: env.serverNodeFlags, log: env.log });
      const memberClients = p.members.map((m) => clientFromKubeconfig(m.kubeconfig, 2));
      try {
        const [tenantA, tenantB] = [await p.stack.createTenant('bench-a'), await p.stack.createTenant('bench-b')];
        const b = await placeTenant(p, tenantB, 'probes');
        const a = await placeTenant(p, tenantA, 'load');
        const label = `${count.toLocaleString('en-US')} templates`;
        const idle = await probe(p, memberClients, b, 'probe-idle');
        rows.push({ scenario: label, metric: 'idle engine: single template -> all 10 members', unit: 'ms', value: idle });
        const result = await scenario(p, memberClients, a, count === largest ? b : undefined, count, env.log);
        rows.push(...result.rows);
        notes.push(...result.notes);
        const worst = result.rows.find((r) => r.metric.startsWith("other tenant's"));
        if (worst) {
          const delay = worst.value - idle;
          rows.push({ scenario: label, metric: "other tenant's template: delay over idle", unit: 'ms', value: delay, goal: '<= 1,000 ms', pass: delay <= 1_000 });
        }
        notes.push(`${label}: engine process (warren serve) peak RSS ${(p.stack.gateway.memory().peakKiB / 1024).toFixed(0)} MiB; host apiserver peak RSS ${(p.stack.upstream.process.memory().peakKiB / 1024).toFixed(0)} MiB`);
      } finally {
        for (const c of memberClients) c.close();
        await p.stop();
      }
    }
    const seconds = (nowMs() - started) / 1000;
    process.stdout.write(`\nPropagation (${MEMBERS} members, Duplicated)\n${renderPropagationText(rows)}\n`);
    const path = writePropagationSection(env.repoRoot, { rows, method: PROPAGATION_METHOD, notes, seconds });
    const goals = rows.filter((r) => r.pass !== undefined);
    return { rows: [], notes: [...notes, `${goals.filter((r) => !r.pass).length} of ${goals.length} goals failed; table above and in ${path}`] };
  } };
}

export const propagationSuite = makePropagationSuite([1_000, 10_000]);

const PROPAGATION_METHOD = [
  `Each server in its own process: a fresh host \`warren apiserver\`, \`warren serve --upstream-kubeconfig\` on it (gateway, onboarding, cluster controller and the propagation engine: the process under test) and ${MEMBERS} member \`warren apiserver\`s without the workload simulator, registered as Clusters as \`warren up\` does; the bench waits until every Cluster is Ready.`,
  'Two tenants made with `warren tenant create`; each creates a namespace and a PropagationPolicy (all Deployments, clusterAffinity.clusterNames = all members, Duplicated) through the gateway as the tenant.',
  `Templates are POSTed straight to the host apiserver in the tenant's upstream namespace with the tenant label, by ${WRITERS} concurrent writers, as fast as the host takes them: this measures the engine, not the gateway's write path. Latencies therefore include queueing behind the burst.`,
  '"Applied on a member" = the first ADDED seen by a watch on that member (Deployments with karmada.io/managed=true in the namespace); latency = that moment - the moment the template POST was sent, both read in the bench process. Per-template figures take the slowest of the 10 members.',
  'Scheduling decisions per second = ResourceBindings whose spec.clusters became non-empty (watched on the host) / (first write -> last such binding).',
  `Fairness: tenant B writes one template when tenant A's 10,000 writes reach ${PROBE_AT.map((f) => `${f * 100}%`).join(', ')}; the worst B latency is compared with B's latency on an idle engine.`,
  `Each scenario runs on a fresh stack and is cut off ${SCENARIO_CAP_MS / 1000} s after its first write (writes included); figures are then over what arrived, and the goal rows fail.`,
];
