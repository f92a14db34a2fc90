// What the engine last applied to each (member, object), so a binding woken by a
// member's status event does not apply an unchanged manifest again. "Unchanged"
// needs both sides: the manifest (its hash) and the member's copy, which must be
// the one the engine's apply produced. Someone editing the copy on the member
// (kubectl scale there) bumps its generation, or, for kinds without one
// (ConfigMap, Secret, Service), its resourceVersion: the next pass applies again
// and the drift is undone, as Karmada's execution controller does.
import type { KubeObject } from '../../core/types.ts';
import { viewStrings } from './interned-strings.ts';

export interface AppliedRecord {
  /** True when the same manifest was applied and the member's copy is still the result of it. */
  unchanged(key: string, hash: string, observed: KubeObject | undefined): boolean;
  record(key: string, hash: string, result: KubeObject | undefined): void;
  forget(key: string): void;
}

/** Spec changes bump generation; status writes do not. Kinds without a generation use the resourceVersion. */
function versionOf(obj: KubeObject): string {
  return obj.metadata.generation !== undefined ? `g${obj.metadata.generation}` : `rv${obj.metadata.resourceVersion ?? ''}`;
}

export function createAppliedRecord(): AppliedRecord {
  const applied = new Map<string, { hash: string; version: string }>();
  return {
    unchanged(key, hash, observed) {
      const last = applied.get(key);
      return last !== undefined && observed !== undefined && last.hash === hash && last.version === versionOf(observed);
    },
    record(key, hash, result) {
      // One entry per (member, object): the same manifest's hash and "g1" on every member are one string each.
      // A resourceVersion is one object's alone: interned, 100,000 of them only flushed the table the views share.
      const version = result ? versionOf(result) : '';
      if (result) applied.set(key, { hash: viewStrings.string(hash), version: version.startsWith('g') ? viewStrings.string(version) : version });
      else applied.delete(key);
    },
    forget(key) {
      applied.delete(key);
    },
  };
}

/** The record's key for one copy: member, upstream namespace, kind, name. */
export function appliedKey(cluster: string, namespace: string, kind: string, name: string): string {
  return `${cluster}|${namespace}|${kind}|${name}`;
}
