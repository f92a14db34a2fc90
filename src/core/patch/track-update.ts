// managedFields bookkeeping for writes that are not applies (create, update,
// json/merge/strategic patch): the writer becomes owner of every field it set
// or changed, taking it from anyone else (updates never conflict), and fields
// that disappeared leave every manager's set. That way a later apply conflicts
// with, e.g., "kubectl-client-side-apply" over .spec.replicas.
import { fieldWalkOf } from './fields-v1.ts';
import { deepEqual } from './json-value.ts';
import type { JsonMap } from './json-value.ts';
import { managersOf, newEntry, sameManager, serialize, withManagedFields } from './managed-fields.ts';

export interface TrackUpdateOptions<T extends JsonMap> {
  previous: T | undefined;
  next: T;
  manager: string;
  now: Date | string;
  apiVersion: string;
  typeName?: string | undefined;
  subresource?: string | undefined;
}

export function trackUpdate<T extends JsonMap>(opts: TrackUpdateOptions<T>): T {
  const previousEntries = managersOf(opts.previous);
  // A client that rewrites managedFields itself (e.g. to clear them) is obeyed, as in kube.
  // Asked only when it sent some: the comparison serialises every field set twice (ADR 0026).
  if (hasManagedFields(opts.next)) {
    const sent = managersOf(opts.next);
    if (JSON.stringify(sent.map((m) => m.entry)) !== JSON.stringify(previousEntries.map((m) => m.entry))) return opts.next;
  }
  // One walk each, which also records every member's value (fieldWalkOf): no path parsed back.
  const before = opts.previous ? fieldWalkOf(opts.previous, opts.typeName) : undefined;
  const walked = fieldWalkOf(opts.next, opts.typeName);
  const after = walked.set;
  const changed: string[] = [];
  for (const p of after) {
    if (!before?.set.has(p)) changed.push(p);
    else if (walked.parents.has(p)) continue; // judged through its leaves
    else if (!deepEqual(before.values.get(p), walked.values.get(p))) changed.push(p);
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
  } else if (existing || changed.length > 0) {
    const mineSet = new Set([...(existing?.set ?? []), ...changed]);
    // The fresh entry's fieldsV1 was just built from mineSet: serialize reuses it (one tree build per write, not two).
    const mine = { ...newEntry({ manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, now: opts.now, subresource: opts.subresource, set: mineSet }), encoded: true };
    if (existing) managers[index] = mine;
    else managers.push(mine);
  }
  return withManagedFields(opts.next, serialize(managers));
}

function hasManagedFields(obj: JsonMap): boolean {
  const meta = obj.metadata as { managedFields?: unknown } | undefined;
  return Array.isArray(meta?.managedFields);
}
