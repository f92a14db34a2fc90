// Answers "what is the type of this field, and how does it patch?" over the
// static tables in patch-strategies.ts. Every other patch module asks here, so
// the tables can change shape internally without touching the algorithms.
import { ATOMIC_STRUCTS, BUILTIN_DEFINITIONS, FIELD_TYPES, PATCH_STRATEGIES } from './patch-strategies.ts';
import type { FieldStrategy } from './patch-strategies.ts';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const KIND_DEFINITIONS: ReadonlySet<string> = new Set(Object.values(BUILTIN_DEFINITIONS));

/**
 * OpenAPI definition name of a built-in kind, or undefined for a custom
 * resource (the caller answers strategic merge with 415, as kube does).
 */
export function definitionNameFor(apiVersion: string, kind: string): string | undefined {
  return BUILTIN_DEFINITIONS[`${apiVersion}/${kind}`];
}

/** Type of a nested field (object, list item or map value); undefined = untyped. */
export function resolveFieldType(typeName: string | undefined, field: string): string | undefined {
  if (typeName === undefined) return undefined;
  // Every kind's metadata is ObjectMeta; saying so once beats a row per kind.
  if (field === 'metadata' && KIND_DEFINITIONS.has(typeName)) return OBJECT_META;
  return PATCH_STRATEGIES[typeName]?.[field]?.itemType ?? FIELD_TYPES[typeName]?.[field];
}

export function fieldStrategy(typeName: string | undefined, field: string): FieldStrategy | undefined {
  return typeName === undefined ? undefined : PATCH_STRATEGIES[typeName]?.[field];
}

export function isAtomicStruct(typeName: string | undefined): boolean {
  return typeName !== undefined && ATOMIC_STRUCTS.has(typeName);
}

/** Keys that identify a list item for server-side apply (list-map-keys, else the merge key). */
export function listKeysOf(strategy: FieldStrategy | undefined): string[] | undefined {
  if (!strategy?.mergeKey || !strategy.strategy.includes('merge')) return undefined;
  return strategy.listMapKeys ?? [strategy.mergeKey];
}

/** A merge list of primitives, such as finalizers (a set in server-side apply). */
export function isPrimitiveMergeList(strategy: FieldStrategy | undefined): boolean {
  return !!strategy && strategy.strategy.includes('merge') && strategy.mergeKey === undefined;
}
