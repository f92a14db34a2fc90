// What the propagation scenarios share: a tenant placed on every member (its
// namespace and a Duplicated PropagationPolicy), its Deployments written
// straight to the host apiserver, a single timed probe, and the latencies read
// off the member watches (per (member, object) pair, and per template = the
// slowest of its members).
import { expectStatus } from './load.ts';
import type { BenchClient } from './http-client.ts';
import type { ReadyTenant } from './targets/gateway-stack.ts';
import { allowMembers, ensureTenantPlacement, type PropagationStack } from './propagation-stack.ts';
import { nowMs, watchArrivals, type Arrivals } from './propagation-watch.ts';

const TENANT_LABEL = 'tenancy.warren.dev/tenant';

export interface Placed { tenant: ReadyTenant; upstreamNs: string }

export function deployment(tenantId: string, namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name, namespace, labels: { [TENANT_LABEL]: tenantId, app: name } },
    spec: {
      replicas: 1, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  });
}

export async function placeTenant(p: PropagationStack, tenant: ReadyTenant, ns: string): Promise<Placed> {
  await allowMembers(p.host, tenant.name, p.members.map((m) => m.name));
  await ensureTenantPlacement(tenant, ns, p.members.map((m) => m.name));
  return { tenant, upstreamNs: `${tenant.id}-${ns}` };
}

/** POSTs one template to the host; returns when the POST was sent (the latency origin). */
export async function writeTemplate(host: BenchClient, placed: Placed, name: string): Promise<number> {
  const t = nowMs();
  expectStatus(await host.request('POST', `/apis/apps/v1/namespaces/${placed.upstreamNs}/deployments`, deployment(placed.tenant.id, placed.upstreamNs, name)), 201);
  return t;
}

/** One template, timed from its write to its arrival on every member. */
export async function probe(host: BenchClient, memberClients: BenchClient[], placed: Placed, name: string, capMs: number): Promise<number> {
  const arrivals = await watchArrivals(memberClients, placed.upstreamNs);
  try {
    const t = await writeTemplate(host, placed, name);
    await arrivals.waitForAll([name], capMs);
    return Math.max(...arrivals.at.map((m) => (m.get(name) ?? NaN) - t));
  } finally {
    arrivals.close();
  }
}

/** Write -> applied, per (member, object) pair, and per template over every member (only templates applied everywhere). */
export function latenciesOf(names: readonly string[], written: ReadonlyMap<string, number>, arrivals: Arrivals): { pairs: number[]; perTemplate: number[] } {
  const pairs: number[] = [];
  const perTemplate: number[] = [];
  for (const name of names) {
    const t = written.get(name) ?? NaN;
    const each = arrivals.at.map((m) => (m.get(name) ?? NaN) - t).filter((x) => !Number.isNaN(x));
    pairs.push(...each);
    if (each.length === arrivals.at.length) perTemplate.push(Math.max(...each));
  }
  return { pairs, perTemplate };
}
