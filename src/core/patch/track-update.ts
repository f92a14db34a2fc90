// managedFields bookkeeping for writes that are not applies (create, update,
// json/merge/strategic patch): the writer becomes owner of every field it set
// or changed, taking it from anyone else (updates never conflict), and fields
// that disappeared leave every manager's set. That way a later apply conflicts
// with, e.g., "kubectl-client-side-apply" over .spec.replicas.
import { fieldSetOf, parentsOf, valueAt } from './fields-v1.ts';
import type { FieldPath, FieldSet } from './fields-v1.ts';
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
  const sent = managersOf(opts.next);
  // A client that rewrites managedFields itself (e.g. to clear them) is obeyed, as in kube.
  if (opts.next.metadata !== undefined && JSON.stringify(sent.map((m) => m.entry)) !== JSON.stringify(previousEntries.map((m) => m.entry))
    && hasManagedFields(opts.next)) {
    return opts.next;
  }
  const before: FieldSet = opts.previous ? fieldSetOf(opts.previous, opts.typeName) : new Set();
  const after = fieldSetOf(opts.next, opts.typeName);
  const parents = before.size > 0 ? parentsOf(after) : undefined;
  const changed = [...after].filter((p) => {
    if (!before.has(p)) return true;
    if (parents?.has(p)) return false; // judged through its leaves
    const path = JSON.parse(p) as FieldPath;
    return !deepEqual(valueAt(opts.previous, path), valueAt(opts.next, path));
  });

  const managers = previousEntries;
  for (const m of managers) {
    for (const p of [...m.set]) if (!after.has(p)) m.set.delete(p);
    if (!sameManager(m.entry, opts.manager, 'Update', opts.subresource)) for (const p of changed) m.set.delete(p);
  }
  const index = managers.findIndex((m) => sameManager(m.entry, opts.manager, 'Update', opts.subresource));
  const mineSet = new Set([...(managers[index]?.set ?? []), ...changed]);
  if (index >= 0 || mineSet.size > 0) {
    const mine = newEntry({ manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, now: opts.now, subresource: opts.subresource, set: mineSet });
    // The fresh entry's fieldsV1 was just built from mineSet: serialize may reuse it (one tree build per write, not two).
    if (index >= 0) managers[index] = changed.length > 0 ? { ...mine, encoded: true } : { ...mine, entry: managers[index]?.entry ?? mine.entry };
    else managers.push({ ...mine, encoded: true });
  }
  return withManagedFields(opts.next, serialize(managers));
}

function hasManagedFields(obj: JsonMap): boolean {
  const meta = obj.metadata as { managedFields?: unknown } | undefined;
  return Array.isArray(meta?.managedFields);
}
