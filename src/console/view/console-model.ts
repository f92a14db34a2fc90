// The console state kept incrementally (pure): a reducer over the watches'
// events. Each event updates only what it touches: a binding its own
// placement cells; a Tenant its row, the rows of the members it gained or
// lost, and (when its id's owner changed) the cells of that id's bindings; a
// Cluster its row and health. flush() turns what changed since the last flush
// into the rows that differ (the live delta) without comparing whole states,
// and state() builds the whole state only for who asks (a new stream, the
// state API). Folding events incrementally gives what buildConsoleState gives
// from the final stores (test/unit/console/console-model.test.ts).
import type { Cluster, ResourceBinding } from '../../core/propagation/karmada-types.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import type { ConsoleState, MemberHealth, MemberRow, PlacedWorkload, PlacementCell, TenantRow } from './console-types.ts';
import { memberHealth, memberRowOf } from './member-rows.ts';
import { bindingTenant, cellOf, placementsOf } from './placement-map.ts';
import { tenantIdOf, tenantRow } from './tenant-rows.ts';
import { byCell, byName, type ConsoleDelta, type KeyedChanges } from './state-delta.ts';

/** One watch event; `object` undefined is a deletion. Binding keys must tell namespaced and cluster bindings apart. */
export type ConsoleEvent =
  | { kind: 'tenant'; key: string; object: Tenant | undefined }
  | { kind: 'cluster'; key: string; object: Cluster | undefined }
  | { kind: 'binding'; key: string; object: ResourceBinding | undefined };

export interface ConsoleModel {
  apply(event: ConsoleEvent): void;
  /** What changed since the last flush, as a delta (undefined: nothing the pages show). */
  flush(): ConsoleDelta | undefined;
  /** The whole state as of the last flush. */
  state(): ConsoleState;
  /** True when events arrived since the last flush. */
  pending(): boolean;
}

const cellKey = (tenant: string, member: string): string => `${tenant}\u0000${member}`;
const addTo = <K, V>(map: Map<K, Set<V>>, key: K, value: V): void => {
  map.set(key, (map.get(key) ?? new Set<V>()).add(value));
};
const removeFrom = <K, V>(map: Map<K, Set<V>>, key: K, value: V): void => {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
};
/** The id prefix a binding's scope carries (its namespace, or its name when cluster-scoped). */
const scopeId = (b: ResourceBinding): string => (b.metadata.namespace ?? b.metadata.name ?? '').slice(0, 6);

export function createConsoleModel(): ConsoleModel {
  const tenants = new Map<string, Tenant>();
  const clusters = new Map<string, Cluster>();
  const bindings = new Map<string, ResourceBinding>();
  const bindingsById = new Map<string, Set<string>>();
  const namesById = new Map<string, Set<string>>();
  const tenantsByMember = new Map<string, Set<string>>();
  /** Per cell, each binding's workloads there; per binding, the cells it placed into. */
  const placed = new Map<string, Map<string, PlacedWorkload[]>>();
  const cellsOfBinding = new Map<string, Set<string>>();
  const cellsOfTenant = new Map<string, Set<string>>();
  // What the last flush produced: the rows the state and the next delta start from.
  const tenantRows = new Map<string, TenantRow>();
  const memberRows = new Map<string, MemberRow>();
  const cells = new Map<string, PlacementCell>();
  const health = new Map<string, MemberHealth>();
  const dirty = { tenants: new Set<string>(), members: new Set<string>(), cells: new Set<string>(), tenantAxis: false, memberAxis: false };
  let revision = 0;
  let flushed = 0;
  let snapshot: ConsoleState | undefined;

  /** The Tenant an id belongs to: only an id exactly one Tenant claims (as tenantNamesById). */
  const ownerOf = (id: string): string | undefined => {
    const names = namesById.get(id);
    return names?.size === 1 ? [...names][0] : undefined;
  };

  function placeBinding(key: string): void {
    for (const cell of cellsOfBinding.get(key) ?? []) {
      placed.get(cell)?.delete(key);
      dirty.cells.add(cell);
    }
    cellsOfBinding.delete(key);
    const binding = bindings.get(key);
    if (!binding) return;
    const prefix = scopeId(binding);
    const owner = ownerOf(prefix);
    const id = owner === undefined ? undefined : bindingTenant(binding, new Set([prefix]));
    if (owner === undefined || id === undefined) return;
    for (const { member, workload } of placementsOf(id, binding)) {
      const cell = cellKey(owner, member);
      const byBinding = placed.get(cell) ?? new Map<string, PlacedWorkload[]>();
      byBinding.set(key, [...(byBinding.get(key) ?? []), workload]);
      placed.set(cell, byBinding);
      addTo(cellsOfBinding, key, cell);
      dirty.cells.add(cell);
    }
  }

  function applyTenant(name: string, tenant: Tenant | undefined): void {
    const old = tenants.get(name);
    if (tenant) tenants.set(name, tenant);
    else tenants.delete(name);
    if (!old !== !tenant) dirty.tenantAxis = true;
    dirty.tenants.add(name);
    const oldId = old ? tenantIdOf(old) : '';
    const newId = tenant ? tenantIdOf(tenant) : '';
    if (oldId !== newId || !old !== !tenant) {
      const owners = [oldId, newId].map((id) => (id ? ownerOf(id) : undefined));
      if (oldId) removeFrom(namesById, oldId, name);
      if (newId) addTo(namesById, newId, name);
      // Only an id whose owner changed moves its bindings' cells.
      [oldId, newId].forEach((id, i) => {
        if (!id || ownerOf(id) === owners[i]) return;
        for (const key of bindingsById.get(id) ?? []) placeBinding(key);
      });
    }
    const before = new Set(old?.status?.clusters ?? []);
    const after = new Set(tenant?.status?.clusters ?? []);
    for (const member of before) if (!after.has(member)) { removeFrom(tenantsByMember, member, name); dirty.members.add(member); }
    for (const member of after) if (!before.has(member)) { addTo(tenantsByMember, member, name); dirty.members.add(member); }
  }

  function applyCluster(name: string, cluster: Cluster | undefined): void {
    if (!clusters.has(name) !== !cluster) dirty.memberAxis = true;
    if (cluster) clusters.set(name, cluster);
    else clusters.delete(name);
    dirty.members.add(name);
  }

  function applyBinding(key: string, binding: ResourceBinding | undefined): void {
    const old = bindings.get(key);
    if (old) removeFrom(bindingsById, scopeId(old), key);
    if (binding) {
      bindings.set(key, binding);
      addTo(bindingsById, scopeId(binding), key);
    } else bindings.delete(key);
    placeBinding(key);
  }

  /** Replaces a row, and records it in the delta when it differs from what was sent. */
  function settle<T>(rows: Map<string, T>, key: string, row: T | undefined, changes: KeyedChanges<T>): void {
    const old = rows.get(key);
    if (row === undefined) {
      if (old === undefined) return;
      rows.delete(key);
      changes.remove.push(key);
      return;
    }
    rows.set(key, row);
    if (old === undefined || JSON.stringify(old) !== JSON.stringify(row)) changes.set.push(row);
  }

  function flushCells(): KeyedChanges<PlacementCell> {
    const changes: KeyedChanges<PlacementCell> = { set: [], remove: [] };
    for (const key of dirty.cells) {
      const [tenant = '', member = ''] = key.split('\u0000');
      const workloads = [...(placed.get(key)?.values() ?? [])].flat();
      if (workloads.length === 0) {
        placed.delete(key);
        removeFrom(cellsOfTenant, tenant, key);
      } else addTo(cellsOfTenant, tenant, key);
      const before = cells.get(key)?.replicas;
      settle(cells, key, workloads.length === 0 ? undefined : cellOf(tenant, member, workloads), changes);
      if (cells.get(key)?.replicas !== before) dirty.tenants.add(tenant);
    }
    return changes;
  }

  const replicasOf = (tenant: string): number => [...(cellsOfTenant.get(tenant) ?? [])].reduce((n, key) => n + (cells.get(key)?.replicas ?? 0), 0);

  function flush(): ConsoleDelta | undefined {
    const cellChanges = flushCells();
    const tenantChanges: KeyedChanges<TenantRow> = { set: [], remove: [] };
    for (const name of dirty.tenants) {
      const tenant = tenants.get(name);
      settle(tenantRows, name, tenant ? tenantRow(tenant, replicasOf(name)) : undefined, tenantChanges);
    }
    const memberChanges: KeyedChanges<MemberRow> = { set: [], remove: [] };
    let healthChanged = false;
    for (const name of dirty.members) {
      const cluster = clusters.get(name);
      settle(memberRows, name, cluster ? memberRowOf(cluster, [...(tenantsByMember.get(name) ?? [])]) : undefined, memberChanges);
      const now = cluster ? memberHealth(cluster).health : undefined;
      if (now !== health.get(name)) healthChanged = true;
      if (now) health.set(name, now);
      else health.delete(name);
    }
    const parts: Omit<ConsoleDelta, 'revision'> = {};
    if (tenantChanges.set.length + tenantChanges.remove.length > 0) parts.tenants = tenantChanges;
    if (memberChanges.set.length + memberChanges.remove.length > 0) parts.members = memberChanges;
    if (cellChanges.set.length + cellChanges.remove.length > 0) parts.cells = cellChanges;
    if (dirty.tenantAxis) parts.placementTenants = [...tenants.keys()].sort();
    if (dirty.memberAxis) parts.placementMembers = [...clusters.keys()].sort();
    if (healthChanged || dirty.memberAxis) parts.health = Object.fromEntries(health);
    dirty.tenants.clear();
    dirty.members.clear();
    dirty.cells.clear();
    dirty.tenantAxis = dirty.memberAxis = false;
    flushed = revision;
    snapshot = undefined;
    return Object.keys(parts).length === 0 ? undefined : { revision: String(flushed), ...parts };
  }

  return {
    apply(event) {
      revision++;
      if (event.kind === 'tenant') applyTenant(event.key, event.object);
      else if (event.kind === 'cluster') applyCluster(event.key, event.object);
      else applyBinding(event.key, event.object);
    },
    flush,
    pending: () => revision !== flushed,
    state() {
      return (snapshot ??= {
        tenants: [...tenantRows.values()].sort(byName),
        members: [...memberRows.values()].sort(byName),
        placement: {
          tenants: [...tenantRows.keys()].sort(),
          members: [...memberRows.keys()].sort(),
          cells: [...cells.values()].sort(byCell),
          health: Object.fromEntries(health),
        },
        revision: String(flushed),
      });
    },
  };
}
