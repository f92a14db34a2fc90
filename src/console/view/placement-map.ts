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

/** Each member a binding places the workload on, with its share there (a member listed twice counts twice, as before). */
export function placementsOf(id: string, binding: ResourceBinding): { member: string; workload: PlacedWorkload }[] {
  return (binding.spec?.clusters ?? []).flatMap((target) => {
    const workload = placedOn(id, binding, target.name);
    return workload ? [{ member: target.name, workload }] : [];
  });
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

// The last key makes the order total (two bindings may place the same kind/name): the incremental model
// (console-model.ts) folds bindings in another order than a rebuild and must give the same cell.
const byWorkload = (a: PlacedWorkload, b: PlacedWorkload): number => `${a.namespace}/${a.name}/${a.kind}`.localeCompare(`${b.namespace}/${b.name}/${b.kind}`)
  || a.replicas - b.replicas || a.ready - b.ready || Number(a.applied) - Number(b.applied) || a.health.localeCompare(b.health);

/** The cell's totals from its workloads, in the one order both the rebuild and the incremental model use. */
export function cellOf(tenant: string, member: string, workloads: readonly PlacedWorkload[]): PlacementCell {
  const sorted = [...workloads].sort(byWorkload);
  return { tenant, member, replicas: sorted.reduce((n, w) => n + w.replicas, 0), ready: sorted.reduce((n, w) => n + w.ready, 0), workloads: sorted };
}

/**
 * Tenant name by id. An id two Tenants claim maps to neither: their bindings are left out, never
 * given to whichever Tenant the store happened to list last.
 */
export function tenantNamesById(tenants: readonly Tenant[]): Map<string, string> {
  const claims = new Map<string, string[]>();
  for (const t of tenants) {
    const id = tenantIdOf(t);
    if (id) claims.set(id, [...(claims.get(id) ?? []), t.metadata.name ?? '']);
  }
  return new Map([...claims].flatMap(([id, names]) => (names.length === 1 ? [[id, names[0] ?? ''] as const] : [])));
}

export function placementMap(tenants: readonly Tenant[], clusters: readonly Cluster[], bindings: readonly ResourceBinding[]): PlacementMap {
  const nameById = tenantNamesById(tenants);
  const ids = new Set(nameById.keys());
  const members = clusters.map((c) => c.metadata.name ?? '').sort();
  const placed = new Map<string, { tenant: string; member: string; workloads: PlacedWorkload[] }>();
  for (const binding of bindings) {
    const id = bindingTenant(binding, ids);
    if (!id) continue;
    const tenant = nameById.get(id) ?? '';
    for (const { member, workload } of placementsOf(id, binding)) {
      const key = `${tenant}\u0000${member}`;
      const entry = placed.get(key) ?? { tenant, member, workloads: [] };
      entry.workloads.push(workload);
      placed.set(key, entry);
    }
  }
  const cells = [...placed.values()].map((p) => cellOf(p.tenant, p.member, p.workloads));
  const health: Record<string, MemberHealth> = {};
  for (const c of clusters) health[c.metadata.name ?? ''] = memberHealth(c).health;
  return {
    tenants: tenants.map((t) => t.metadata.name ?? '').sort(),
    members,
    cells: cells.sort(byCell),
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
