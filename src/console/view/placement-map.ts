// Where every tenant's replicas run (pure): tenants × members from the
// ResourceBindings (and ClusterResourceBindings) the engine keeps upstream.
// A binding belongs to the tenant whose prefix its namespace (or, cluster-
// scoped, its name) carries; one that maps to no known tenant is left out,
// never guessed. Names are shown in the tenant's own terms.
import type { ResourceBinding } from '../../core/propagation/karmada-types.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import type { Cluster } from '../../core/propagation/karmada-types.ts';
import { toTenantClusterName, toTenantNamespace } from '../../core/tenancy/names.ts';
import type { BindingRow, MemberHealth, PlacedWorkload, PlacementCell, PlacementMap } from './console-types.ts';
import { memberHealth } from './member-rows.ts';
import { tenantIdOf } from './tenant-rows.ts';
import { byCell } from './state-delta.ts';

/** The tenant id a binding belongs to, among the known ids; undefined when none. */
export function bindingTenant(binding: ResourceBinding, ids: ReadonlySet<string>): string | undefined {
  const scope = binding.metadata.namespace ?? binding.metadata.name ?? '';
  const id = scope.slice(0, 6);
  if (!ids.has(id)) return undefined;
  const inside = binding.metadata.namespace ? toTenantNamespace(id, scope) : toTenantClusterName(id, scope);
  return inside === undefined ? undefined : id;
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** One workload's share on one member: scheduled replicas, and what the member reports ready. */
export function placedOn(id: string, binding: ResourceBinding, member: string): PlacedWorkload | undefined {
  const target = binding.spec?.clusters?.find((c) => c.name === member);
  if (!target) return undefined;
  const status = binding.status?.aggregatedStatus?.find((s) => s.clusterName === member);
  const ref = binding.spec.resource;
  const ns = ref.namespace ? toTenantNamespace(id, ref.namespace) ?? '' : '';
  const name = ref.namespace ? ref.name : toTenantClusterName(id, ref.name) ?? ref.name;
  return {
    kind: ref.kind,
    namespace: ns,
    name,
    replicas: numberOf(target.replicas),
    ready: numberOf(status?.status?.readyReplicas),
    applied: status?.applied === true,
    health: status?.health ?? 'Unknown',
  };
}

const byName = (a: PlacedWorkload, b: PlacedWorkload): number => `${a.namespace}/${a.name}/${a.kind}`.localeCompare(`${b.namespace}/${b.name}/${b.kind}`);

export function placementMap(tenants: readonly Tenant[], clusters: readonly Cluster[], bindings: readonly ResourceBinding[]): PlacementMap {
  const nameById = new Map(tenants.flatMap((t) => (tenantIdOf(t) ? [[tenantIdOf(t), t.metadata.name ?? ''] as const] : [])));
  const ids = new Set(nameById.keys());
  const members = clusters.map((c) => c.metadata.name ?? '').sort();
  const cells = new Map<string, PlacementCell>();
  for (const binding of bindings) {
    const id = bindingTenant(binding, ids);
    if (!id) continue;
    const tenant = nameById.get(id) ?? '';
    for (const target of binding.spec?.clusters ?? []) {
      const workload = placedOn(id, binding, target.name);
      if (!workload) continue;
      const key = `${tenant}\u0000${target.name}`;
      const cell = cells.get(key) ?? { tenant, member: target.name, replicas: 0, ready: 0, workloads: [] };
      cell.replicas += workload.replicas;
      cell.ready += workload.ready;
      cell.workloads.push(workload);
      cells.set(key, cell);
    }
  }
  for (const cell of cells.values()) cell.workloads.sort(byName);
  const health: Record<string, MemberHealth> = {};
  for (const c of clusters) health[c.metadata.name ?? ''] = memberHealth(c).health;
  return {
    tenants: tenants.map((t) => t.metadata.name ?? '').sort(),
    members,
    cells: [...cells.values()].sort(byCell),
    health,
  };
}

/** Replicas per tenant name, all members together. */
export function replicasByTenant(map: PlacementMap): Map<string, number> {
  const out = new Map<string, number>();
  for (const cell of map.cells) out.set(cell.tenant, (out.get(cell.tenant) ?? 0) + cell.replicas);
  return out;
}

function conditionText(binding: ResourceBinding, type: string): string {
  const c = binding.status?.conditions?.find((x) => x.type === type);
  return c ? `${c.status}${c.reason ? ` (${c.reason})` : ''}` : '';
}

/** A tenant's bindings for its detail page: placement per member and the engine's conditions. */
export function bindingRows(id: string, bindings: readonly ResourceBinding[]): BindingRow[] {
  const ids = new Set([id]);
  return bindings.filter((b) => bindingTenant(b, ids) === id).map((b) => {
    const ref = b.spec.resource;
    const healths = (b.status?.aggregatedStatus ?? []).map((s) => s.health ?? 'Unknown');
    return {
      kind: ref.kind,
      namespace: ref.namespace ? toTenantNamespace(id, ref.namespace) ?? '' : '',
      name: ref.namespace ? ref.name : toTenantClusterName(id, ref.name) ?? ref.name,
      replicas: numberOf(b.spec.replicas),
      placement: (b.spec.clusters ?? []).map((c) => ({ member: c.name, replicas: numberOf(c.replicas) })),
      scheduled: conditionText(b, 'Scheduled'),
      applied: conditionText(b, 'FullyApplied'),
      health: healths.length === 0 ? 'Unknown' : healths.every((h) => h === 'Healthy') ? 'Healthy' : healths.includes('Unhealthy') ? 'Unhealthy' : 'Unknown',
    };
  }).sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}
