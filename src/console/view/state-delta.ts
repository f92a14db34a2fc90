// Live updates as deltas (pure, shared by the server and the browser): after
// the first whole state, each update carries only the rows that changed, keyed
// by name (tenants, members) or by tenant and member (placement cells), the
// keys that went away, and the placement's axes and member health only when
// they changed. Applying the delta to the state it was computed from gives the
// new state exactly (test/unit/console/state-delta.test.ts), in the order
// buildConsoleState gives it (one comparator each, below).
import type { ConsoleState, MemberHealth, MemberRow, PlacementCell, TenantRow } from './console-types.ts';

export interface KeyedChanges<T> {
  /** Rows added or changed, whole. */
  set: T[];
  /** Keys of rows gone. */
  remove: string[];
}

export interface ConsoleDelta {
  revision: string;
  tenants?: KeyedChanges<TenantRow>;
  members?: KeyedChanges<MemberRow>;
  cells?: KeyedChanges<PlacementCell>;
  /** The placement map's axes and member health, whole, when they changed. */
  placementTenants?: string[];
  placementMembers?: string[];
  health?: Record<string, MemberHealth>;
}

export const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);
export const byCell = (a: PlacementCell, b: PlacementCell): number => a.tenant.localeCompare(b.tenant) || a.member.localeCompare(b.member);
const cellKey = (c: PlacementCell): string => `${c.tenant}\u0000${c.member}`;
const nameKey = (r: { name: string }): string => r.name;

function keyedChanges<T>(before: readonly T[], after: readonly T[], key: (row: T) => string): KeyedChanges<T> | undefined {
  const old = new Map(before.map((row) => [key(row), JSON.stringify(row)]));
  const set = after.filter((row) => old.get(key(row)) !== JSON.stringify(row));
  const kept = new Set(after.map(key));
  const remove = [...old.keys()].filter((k) => !kept.has(k));
  return set.length === 0 && remove.length === 0 ? undefined : { set, remove };
}

function applyKeyed<T>(rows: readonly T[], changes: KeyedChanges<T> | undefined, key: (row: T) => string, order: (a: T, b: T) => number): T[] {
  if (!changes) return [...rows];
  const out = new Map(rows.map((row) => [key(row), row]));
  for (const k of changes.remove) out.delete(k);
  for (const row of changes.set) out.set(key(row), row);
  return [...out.values()].sort(order);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** What changed from `before` to `after`; undefined when nothing the pages show did (the revision alone). */
export function stateDelta(before: ConsoleState, after: ConsoleState): ConsoleDelta | undefined {
  const parts: Omit<ConsoleDelta, 'revision'> = {};
  const tenants = keyedChanges(before.tenants, after.tenants, nameKey);
  const members = keyedChanges(before.members, after.members, nameKey);
  const cells = keyedChanges(before.placement.cells, after.placement.cells, cellKey);
  if (tenants) parts.tenants = tenants;
  if (members) parts.members = members;
  if (cells) parts.cells = cells;
  if (!same(before.placement.tenants, after.placement.tenants)) parts.placementTenants = after.placement.tenants;
  if (!same(before.placement.members, after.placement.members)) parts.placementMembers = after.placement.members;
  if (!same(before.placement.health, after.placement.health)) parts.health = after.placement.health;
  return Object.keys(parts).length === 0 ? undefined : { revision: after.revision, ...parts };
}

export function applyDelta(state: ConsoleState, delta: ConsoleDelta): ConsoleState {
  return {
    tenants: applyKeyed(state.tenants, delta.tenants, nameKey, byName),
    members: applyKeyed(state.members, delta.members, nameKey, byName),
    placement: {
      tenants: delta.placementTenants ?? state.placement.tenants,
      members: delta.placementMembers ?? state.placement.members,
      cells: applyKeyed(state.placement.cells, delta.cells, cellKey, byCell),
      health: delta.health ?? state.placement.health,
    },
    revision: delta.revision,
  };
}
