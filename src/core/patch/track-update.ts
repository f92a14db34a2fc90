// managedFields bookkeeping for writes that are not applies (create, update,
// json/merge/strategic patch): the writer becomes owner of every field it set
// or changed, taking it from anyone else (updates never conflict), and fields
// that disappeared leave every manager's set. That way a later apply conflicts
// with, e.g., "kubectl-client-side-apply" over .spec.replicas.
import { fieldWalkOf, valueAt, type FieldPath, type FieldSet, type FieldWalk } from './fields-v1.ts';
import { deepEqual } from './json-value.ts';
import type { JsonMap } from './json-value.ts';
import { formatTime, managersOf, newEntry, sameManager, serialize, withManagedFields, type TrackedManager } from './managed-fields.ts';

/**
 * What one write's bookkeeping learnt about the object it wrote, handed to the next write of that object
 * so that its "before" is not walked and parsed again (ADR 0026: the next write's "before" is this
 * write's "after"). Valid only for exactly the object it was computed for: the caller keys it by
 * resourceVersion.
 */
export interface CarriedFields {
  /** The written object's walk. Member values that are objects or arrays are LOOK_UP (see below). */
  walk: FieldWalk;
  /** The field set of each managedFields entry of the written object, in entry order. */
  sets: FieldSet[];
}

/**
 * Stands for a member whose value is an object or array: such a value is looked up in the previous
 * object itself when compared. Carried values are therefore all immutable, whatever a caller later
 * does with the object it was handed.
 */
export const LOOK_UP: unique symbol = Symbol('look up in the previous object');

export interface TrackUpdateOptions<T extends JsonMap> {
  previous: T | undefined;
  next: T;
  manager: string;
  now: Date | string;
  apiVersion: string;
  typeName?: string | undefined;
  subresource?: string | undefined;
  /** The previous write's CarriedFields, when `previous` is exactly the object it wrote. */
  carried?: CarriedFields | undefined;
}

export interface TrackedUpdate<T extends JsonMap> {
  object: T;
  /** Members tracked in the written object (how large the bookkeeping is). */
  members: number;
  /**
   * The state to carry to the next write of `object` (built on demand: a pass over the members);
   * undefined when the client wrote managedFields itself.
   */
  carry: (() => CarriedFields) | undefined;
}

export function trackUpdate<T extends JsonMap>(opts: TrackUpdateOptions<T>): T {
  return trackUpdateCarrying(opts).object;
}

export function trackUpdateCarrying<T extends JsonMap>(opts: TrackUpdateOptions<T>): TrackedUpdate<T> {
  const carried = opts.previous ? opts.carried : undefined;
  const previousEntries = (carried && managersFromCarried(opts.previous, carried)) ?? managersOf(opts.previous);
  // A client that rewrites managedFields itself (e.g. to clear them) is obeyed, as in kube.
  // Asked only when it sent some: the comparison serialises every field set twice (ADR 0026).
  if (hasManagedFields(opts.next)) {
    const sent = managersOf(opts.next);
    if (JSON.stringify(sent.map((m) => m.entry)) !== JSON.stringify(previousEntries.map((m) => m.entry))) return untracked(opts.next);
  }
  // One walk each, which also records every member's value (fieldWalkOf): no path parsed back.
  const before = carried?.walk ?? (opts.previous ? fieldWalkOf(opts.previous, opts.typeName) : undefined);
  // Object values are recorded as LOOK_UP, so that this walk can be carried to the next write as it is.
  const walked = fieldWalkOf(opts.next, opts.typeName, { objectMarker: LOOK_UP });
  const after = walked.set;
  const changed: string[] = [];
  for (const p of after) {
    if (!before?.set.has(p)) changed.push(p);
    else if (walked.parents.has(p)) continue; // judged through its leaves
    else if (!deepEqual(valueIn(before, p, opts.previous), valueIn(walked, p, opts.next))) changed.push(p);
  }

  const managers = previousEntries;
  for (const m of managers) {
    const size = m.set.size;
    for (const p of m.set) if (!after.has(p)) m.set.delete(p); // deleting the current member while iterating a Set is safe
    if (!sameManager(m.entry, opts.manager, 'Update', opts.subresource)) for (const p of changed) m.set.delete(p);
    // A set that lost nothing keeps the stored encoding (managersOf read it from there): no rebuild of
    // a tree of every field per manager per write.
    if (m.set.size === size) m.encoded = true;
  }
  const index = managers.findIndex((m) => sameManager(m.entry, opts.manager, 'Update', opts.subresource));
  const existing = managers[index];
  if (existing && changed.length === 0) {
    // Nothing of the writer's changed: its entry (time included) stays; only a shrunk set is re-encoded.
  } else if (existing?.encoded === true && changed.every((p) => existing.set.has(p))) {
    // The writer changed only fields it already owned: its set is the same, so its stored tree stays
    // (a 20,000-member tree rebuilt per write was a tenth of a large object's update).
    managers[index] = { entry: { ...existing.entry, apiVersion: opts.apiVersion, time: formatTime(opts.now) }, set: existing.set, encoded: true };
  } else if (existing || changed.length > 0) {
    const mineSet = new Set([...(existing?.set ?? []), ...changed]);
    // The fresh entry's fieldsV1 was just built from mineSet: serialize reuses it (one tree build per write, not two).
    const mine = { ...newEntry({ manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, now: opts.now, subresource: opts.subresource, set: mineSet }), encoded: true };
    if (existing) managers[index] = mine;
    else managers.push(mine);
  }
  return {
    object: withManagedFields(opts.next, serialize(managers)),
    members: after.size,
    // serialize keeps the managers with a non-empty set, in order: the carried sets align with the entries written.
    carry: () => ({ walk: walked, sets: managers.filter((m) => m.set.size > 0).map((m) => m.set) }),
  };
}

/** The entries of `previous` with their sets taken from the carried state (copied: the bookkeeping edits them). */
function managersFromCarried(previous: JsonMap | undefined, carried: CarriedFields): TrackedManager[] | undefined {
  const meta = previous?.metadata as { managedFields?: unknown } | undefined;
  const list = Array.isArray(meta?.managedFields) ? (meta.managedFields as unknown[]) : [];
  if (list.length !== carried.sets.length || list.some((e) => typeof e !== 'object' || e === null)) return undefined;
  return list.map((raw, i) => ({ entry: { ...(raw as TrackedManager['entry']) }, set: new Set(carried.sets[i]) }));
}

/** A member's value as the walk recorded it, or looked up in the walked object when it is an object (LOOK_UP). */
function valueIn(walk: FieldWalk, member: string, obj: JsonMap | undefined): unknown {
  const value = walk.values.get(member);
  return value === LOOK_UP ? valueAt(obj, JSON.parse(member) as FieldPath) : value;
}

/** A write whose managedFields the client set itself: nothing walked, nothing to carry. */
function untracked<T extends JsonMap>(object: T): TrackedUpdate<T> {
  return { object, members: 0, carry: undefined };
}

function hasManagedFields(obj: JsonMap): boolean {
  const meta = obj.metadata as { managedFields?: unknown } | undefined;
  return Array.isArray(meta?.managedFields);
}
