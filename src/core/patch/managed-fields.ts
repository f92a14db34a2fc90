// managedFields entries as server-side apply reads and writes them: who a
// manager is (name + operation + subresource), how kube prints one in a
// conflict, and rebuilding the list after field sets change.
import type { ManagedFieldsEntry } from '../types.ts';
import { isObject } from '../types.ts';
import { fromFieldsV1, toFieldsV1 } from './fields-v1.ts';
import type { FieldSet } from './fields-v1.ts';
import type { JsonMap } from './json-value.ts';

export interface TrackedManager {
  entry: ManagedFieldsEntry;
  set: FieldSet;
  /** True when entry.fieldsV1 is known to be toFieldsV1(set): serialize need not rebuild it. Whoever changes `set` must clear it. */
  encoded?: boolean;
}

export function managersOf(obj: JsonMap | undefined): TrackedManager[] {
  const meta = obj?.metadata;
  const list = isObject(meta) && Array.isArray(meta.managedFields) ? meta.managedFields : [];
  return list.filter(isObject).map((raw) => {
    const entry = raw as ManagedFieldsEntry;
    return { entry: { ...entry }, set: fromFieldsV1(entry.fieldsV1) };
  });
}

export function sameManager(entry: ManagedFieldsEntry, manager: string, operation: 'Apply' | 'Update', subresource?: string): boolean {
  return entry.manager === manager && entry.operation === operation && (entry.subresource ?? '') === (subresource ?? '');
}

/**
 * kube's printManager (fieldmanager/internal/conflict.go): the name, the
 * subresource if any, and for Update managers "using <apiVersion>" (the
 * manager identifier kube compares carries no time, so no "at ...").
 */
export function printManager(entry: ManagedFieldsEntry): string {
  let out = JSON.stringify(entry.manager ?? '');
  if (entry.subresource) out += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') out += ` using ${entry.apiVersion ?? ''}`;
  return out;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function formatTime(now: Date | string): string {
  const date = typeof now === 'string' ? new Date(now) : now;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function newEntry(input: {
  manager: string; operation: 'Apply' | 'Update'; apiVersion: string; now: Date | string; subresource?: string | undefined; set: FieldSet;
}): TrackedManager {
  const entry: ManagedFieldsEntry = {
    manager: input.manager, operation: input.operation, apiVersion: input.apiVersion,
    time: formatTime(input.now), fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(input.set),
  };
  if (input.subresource) entry.subresource = input.subresource;
  return { entry, set: input.set };
}

/** Entries with an empty field set are dropped, as kube does. */
export function serialize(managers: TrackedManager[]): ManagedFieldsEntry[] {
  return managers.filter((m) => m.set.size > 0).map((m) => ({ ...m.entry, fieldsV1: m.encoded === true ? m.entry.fieldsV1 : toFieldsV1(m.set) }));
}

/** Does the set hold a path strictly below `encoded`? (Then `encoded` is not a leaf.) A scan of the set: for many paths, use parentsOf (fields-v1.ts). */
export function hasChildIn(set: FieldSet, encoded: string): boolean {
  const prefix = encoded.slice(0, -1) + ',';
  for (const p of set) if (p.startsWith(prefix)) return true;
  return false;
}

export function withManagedFields<T extends JsonMap>(obj: T, entries: ManagedFieldsEntry[]): T {
  const meta = isObject(obj.metadata) ? { ...obj.metadata } : {};
  if (entries.length > 0) meta.managedFields = entries;
  else delete meta.managedFields;
  return { ...obj, metadata: meta };
}
