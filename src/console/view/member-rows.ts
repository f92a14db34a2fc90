// Member clusters as the console shows them (pure): health from the Ready
// condition the cluster controller keeps, version, taints, where they are,
// how full, and which tenants may use each (from the Tenants' resolved
// status.clusters, the same list the engine schedules by).
import type { Cluster } from '../../core/propagation/karmada-types.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import { quantityNumber as parseQuantity } from '../../core/quantity.ts';
import type { MemberHealth, MemberRow, ResourceLine } from './console-types.ts';

const SHOWN_RESOURCES = ['cpu', 'memory', 'pods'];

export function memberHealth(cluster: Cluster): { health: MemberHealth; reason: string } {
  const ready = cluster.status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return { health: 'Unknown', reason: 'no Ready condition yet' };
  const reason = [ready.reason, ready.message].filter(Boolean).join(': ');
  if (ready.status === 'True') return { health: 'Ready', reason };
  return { health: ready.status === 'False' ? 'NotReady' : 'Unknown', reason };
}

function resourceLines(cluster: Cluster): ResourceLine[] {
  const summary = cluster.status?.resourceSummary ?? {};
  return SHOWN_RESOURCES.flatMap((resource) => {
    const allocatable = summary.allocatable?.[resource];
    if (allocatable === undefined) return [];
    const allocated = summary.allocated?.[resource] ?? '0';
    const max = parseQuantity(allocatable) ?? 0;
    const used = parseQuantity(allocated) ?? 0;
    return [{ resource, allocatable, allocated, fraction: max > 0 ? Math.min(1, used / max) : 0 }];
  });
}

/** A label's value, else the Cluster's own spec field (Karmada has both). */
function place(cluster: Cluster, field: 'region' | 'zone' | 'provider'): string {
  const labels = cluster.metadata.labels ?? {};
  return cluster.spec?.[field] ?? labels[`topology.kubernetes.io/${field}`] ?? labels[field] ?? '';
}

export function memberRow(cluster: Cluster, tenants: readonly Tenant[]): MemberRow {
  const name = cluster.metadata.name ?? '';
  return memberRowOf(cluster, tenants.filter((t) => (t.status?.clusters ?? []).includes(name)).map((t) => t.metadata.name ?? ''));
}

/** The row with the names of the tenants allowed on it already known (the incremental model keeps them). */
export function memberRowOf(cluster: Cluster, tenantNames: readonly string[]): MemberRow {
  const name = cluster.metadata.name ?? '';
  const { health, reason } = memberHealth(cluster);
  const nodes = cluster.status?.nodeSummary;
  return {
    name,
    health,
    healthReason: reason,
    version: cluster.status?.kubernetesVersion ?? '',
    taints: (cluster.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
    region: place(cluster, 'region'),
    zone: place(cluster, 'zone'),
    provider: place(cluster, 'provider'),
    resources: resourceLines(cluster),
    nodes: nodes?.totalNum !== undefined ? `${nodes.readyNum ?? 0}/${nodes.totalNum}` : '',
    tenants: [...new Set(tenantNames)].sort(),
  };
}
