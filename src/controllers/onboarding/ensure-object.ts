// ensure* = idempotent write: create the object, or update it when the fields
// Warren owns differ, leaving everything else on it alone (labels someone else
// added, fields the apiserver defaulted). Owned fields are: the desired labels
// and annotations (by key), and each desired top-level field other than
// metadata, status, apiVersion and kind.
import type { KubeObject } from '../../core/types.ts';
import { ApiError } from '../../core/api-error.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { jsonEqual } from '../../core/json-equal.ts';

const NOT_OWNED = new Set(['metadata', 'status', 'apiVersion', 'kind']);

export type EnsureOutcome = 'created' | 'updated' | 'unchanged';

/** The fields of `desired` that `existing` does not match; empty when in sync. */
export function driftOf(existing: KubeObject, desired: KubeObject, ignore: readonly string[] = []): string[] {
  const drift: string[] = [];
  for (const part of ['labels', 'annotations'] as const) {
    for (const [k, v] of Object.entries(desired.metadata[part] ?? {})) {
      if (existing.metadata[part]?.[k] !== v) drift.push(`metadata.${part}.${k}`);
    }
  }
  for (const [field, value] of Object.entries(desired)) {
    if (NOT_OWNED.has(field) || ignore.includes(field)) continue;
    if (!jsonEqual(existing[field], value)) drift.push(field);
  }
  return drift;
}

/** `existing` with the owned fields of `desired` written over it. */
export function mergeOwned(existing: KubeObject, desired: KubeObject, ignore: readonly string[] = []): KubeObject {
  const merged: KubeObject = structuredClone(existing);
  merged.metadata.labels = { ...existing.metadata.labels, ...desired.metadata.labels };
  if (desired.metadata.annotations) merged.metadata.annotations = { ...existing.metadata.annotations, ...desired.metadata.annotations };
  for (const [field, value] of Object.entries(desired)) {
    if (NOT_OWNED.has(field) || ignore.includes(field)) continue;
    merged[field] = structuredClone(value);
  }
  return merged;
}

export interface EnsureOptions {
  /** Top-level fields another controller fills (an aggregated ClusterRole's rules). */
  ignore?: readonly string[];
  /**
   * The object is probably missing (a tenant being onboarded for the first time):
   * POST first and read only on 409 AlreadyExists. Same end state, one request
   * instead of two for the common case; a wrong guess costs one extra request.
   */
  likelyMissing?: boolean;
}

export async function ensureObject(client: ObjectClient, collectionPath: string, desired: KubeObject, options: EnsureOptions = {}): Promise<EnsureOutcome> {
  const name = desired.metadata.name ?? '';
  const path = `${collectionPath}/${name}`;
  if (options.likelyMissing) {
    try {
      await client.create(collectionPath, desired);
      return 'created';
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
    }
  }
  const existing = await client.get(path);
  if (!existing) {
    await client.create(collectionPath, desired);
    return 'created';
  }
  if (driftOf(existing, desired, options.ignore).length === 0) return 'unchanged';
  await client.update(path, mergeOwned(existing, desired, options.ignore));
  return 'updated';
}
