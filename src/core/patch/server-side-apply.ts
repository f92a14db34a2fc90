// Server-side apply: merges an applied configuration into the live object,
// tracks ownership per manager in metadata.managedFields, refuses to change a
// field another manager owns unless forced (409 with kube's message and
// FieldManagerConflict causes), and removes fields this manager applied before
// but no longer does, unless someone else still owns them.
import { ApiError } from '../api-error.ts';
import type { StatusCause } from '../types.ts';
import { isObject } from '../types.ts';
import { mergeApplied, removePaths } from './apply-merge.ts';
import { fieldSetOf, parentsOf, pathString, valueAt } from './fields-v1.ts';
import type { FieldPath, FieldSet } from './fields-v1.ts';
import { cloneJson, deepEqual } from './json-value.ts';
import type { JsonMap } from './json-value.ts';
import { managersOf, newEntry, printManager, sameManager, serialize, withManagedFields } from './managed-fields.ts';
import type { TrackedManager } from './managed-fields.ts';

export { trackUpdate } from './track-update.ts';
export type { TrackUpdateOptions } from './track-update.ts';

export interface ServerSideApplyOptions<T extends JsonMap> {
  /** The stored object; undefined when the apply creates it. */
  live: T | undefined;
  applied: T;
  manager: string;
  force?: boolean;
  /** OpenAPI definition name; undefined for custom resources (lists are atomic). */
  typeName: string | undefined;
  now: Date | string;
  /** apiVersion the request was made in, recorded on the entry. */
  apiVersion: string;
  subresource?: string | undefined;
}

interface Conflict { owner: TrackedManager; path: FieldPath }

export function serverSideApply<T extends JsonMap>(opts: ServerSideApplyOptions<T>): { object: T } {
  const steps = serverSideApplySteps(opts);
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/**
 * The same apply as steps: it yields between its phases (read the managers, merge, find
 * conflicts, drop what this manager no longer applies, write the managers), so that a caller
 * running a large apply in turns lets other work in between (issue 13; a forced apply of a
 * 10,000-label ConfigMap was one step of ~1 s of CPU). Pure: the caller decides what a yield means.
 */
export function* serverSideApplySteps<T extends JsonMap>(opts: ServerSideApplyOptions<T>): Generator<void, { object: T }, void> {
  const applied = stripManagedFields(opts.applied);
  yield;
  const live: JsonMap = opts.live ? cloneJson(opts.live) : {};
  yield;
  const managers = opts.live ? managersOf(opts.live) : [];
  if (opts.live && managers.length === 0) {
    // An object nobody tracked yet: kube gives its current fields to
    // "before-first-apply", so the first apply conflicts with what is there.
    const set = fieldSetOf(live, opts.typeName);
    if (set.size > 0) managers.push(newEntry({ manager: 'before-first-apply', operation: 'Update', apiVersion: opts.apiVersion, now: opts.now, set }));
  }
  const mineIndex = managers.findIndex((m) => sameManager(m.entry, opts.manager, 'Apply', opts.subresource));
  const previous: FieldSet = mineIndex >= 0 ? managers[mineIndex]?.set ?? new Set() : new Set();
  const others = managers.filter((_, i) => i !== mineIndex);
  yield;
  const appliedSet = fieldSetOf(applied, opts.typeName);
  const merged = mergeApplied(live, applied, opts.typeName);
  yield;

  const conflicts = findConflicts(appliedSet, others, live, merged);
  if (conflicts.length > 0 && !opts.force) throw conflictError(conflicts);
  for (const c of conflicts) c.owner.set.delete(JSON.stringify(c.path));
  yield;

  // Parents of each set found once: a scan of a set per path was O(n^2), 20 s of CPU for a 10,000-label apply.
  const othersParents = others.map((o) => parentsOf(o.set));
  const dropped = [...previous].filter((p) => !appliedSet.has(p) && !others.some((o, i) => o.set.has(p) || othersParents[i]?.has(p) === true));
  removePaths(merged, dropped.map((p) => JSON.parse(p) as FieldPath));
  yield;

  const mine = newEntry({ manager: opts.manager, operation: 'Apply', apiVersion: opts.apiVersion, now: opts.now, subresource: opts.subresource, set: appliedSet });
  const next = mineIndex >= 0 ? managers.map((m, i) => (i === mineIndex ? mine : m)) : [...managers, mine];
  return { object: withManagedFields(merged, serialize(next)) as T };
}

/**
 * A conflict is a leaf this apply sets that another manager owns, whose live
 * value the apply would change. Applying the same value is shared ownership.
 */
function findConflicts(appliedSet: FieldSet, others: TrackedManager[], live: JsonMap, merged: JsonMap): Conflict[] {
  const out: Conflict[] = [];
  const parents = parentsOf(appliedSet);
  for (const encoded of appliedSet) {
    // A keyed item or a map with children is judged through its leaves.
    if (parents.has(encoded)) continue;
    const path = JSON.parse(encoded) as FieldPath;
    const before = valueAt(live, path);
    if (before === undefined || deepEqual(before, valueAt(merged, path))) continue;
    for (const owner of others) if (owner.set.has(encoded)) out.push({ owner, path });
  }
  return out;
}

function conflictError(conflicts: Conflict[]): ApiError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    type: 'FieldManagerConflict', message: `conflict with ${printManager(c.owner.entry)}`, field: pathString(c.path),
  }));
  let message: string;
  const [first] = conflicts;
  if (conflicts.length === 1 && first) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(first.owner.entry)}: ${pathString(first.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const who = printManager(c.owner.entry);
      byManager.set(who, [...(byManager.get(who) ?? []), pathString(c.path)]);
    }
    const lines = [...byManager.keys()].sort().flatMap((who) => [`conflicts with ${who}:`, ...(byManager.get(who) ?? []).map((p) => `- ${p}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError('Conflict', message, { causes });
}

function stripManagedFields<T extends JsonMap>(obj: T): JsonMap {
  const copy = cloneJson(obj) as JsonMap;
  if (isObject(copy.metadata)) delete copy.metadata.managedFields;
  return copy;
}
