// Strategic merge patch, following k8s.io/apimachinery/pkg/util/strategicpatch
// as the apiserver runs it (MergeParallelList and IgnoreUnmatchedNulls on):
// - maps merge recursively; null deletes; a type mismatch replaces;
// - a list merges only when its field has patch strategy "merge": by merge key
//   for lists of objects (matching items merge in place, new ones append), as
//   a de-duplicated union for lists of primitives (finalizers); any other list
//   is replaced whole;
// - directives: `$patch: replace|delete|merge` in a map or a list item,
//   `$retainKeys`, `$deleteFromPrimitiveList/<f>`, `$setElementOrder/<f>`.
// Types come from type-resolver.ts; an untyped field below a typed one merges
// its maps and replaces its lists, which is what kube does for a field without
// tags. Custom resources have no type: kube answers 415 (see
// strategicMergeUnsupported), it does not fall back to merge patch.
import { ApiError, badRequest } from '../api-error.ts';
import { isObject } from '../types.ts';
import { fieldStrategy, resolveFieldType } from './type-resolver.ts';
import { cloneJson, deepEqual, setOwn } from './json-value.ts';
import type { JsonMap } from './json-value.ts';
import { BUILTIN_DEFINITIONS, FIELD_TYPES, PATCH_STRATEGIES } from './patch-strategies.ts';

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM = '$deleteFromPrimitiveList/';
const SET_ORDER = '$setElementOrder/';

/** The 415 kube-apiserver returns for a strategic merge patch on a custom resource. */
export function strategicMergeUnsupported(): ApiError {
  return new ApiError('UnsupportedMediaType',
    'the body of the request was in an unknown format - accepted media types include: '
    + 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
}

const KNOWN: ReadonlySet<string> = new Set([
  ...Object.values(BUILTIN_DEFINITIONS), ...Object.keys(PATCH_STRATEGIES), ...Object.keys(FIELD_TYPES),
]);

/** Does kube accept strategic merge for this definition (i.e. is it a built-in type)? */
export function supportsStrategicMerge(typeName: string | undefined): boolean {
  return typeName !== undefined && KNOWN.has(typeName);
}

/** Applies a strategic merge patch to a copy of `doc`; never mutates either. */
export function applyStrategicMergePatch<T extends JsonMap>(doc: T, patch: unknown, typeName: string | undefined): T {
  if (!supportsStrategicMerge(typeName)) throw strategicMergeUnsupported();
  if (!isObject(patch)) throw badRequest('invalid JSON document');
  return mergeMap(cloneJson(doc), cloneJson(patch), typeName) as T;
}

/** Merges `patch` into `original` (which it may mutate; callers pass copies). */
export function mergeMap(original: JsonMap, patch: JsonMap, typeName: string | undefined): JsonMap {
  const directive = patch[PATCH];
  if (directive !== undefined && directive !== 'merge') {
    if (directive === 'replace') return withoutDirectives(patch);
    if (directive === 'delete') return {};
    throw badRequest(`Unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  }
  applyRetainKeys(original, patch);
  for (const [key, patchValue] of Object.entries(patch)) {
    if (key === PATCH || key === RETAIN_KEYS || key.startsWith(SET_ORDER)) continue;
    if (key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      if (!Array.isArray(patchValue)) throw badRequest(`invalid type for ${key}: expected a list`);
      const current = original[field];
      if (Array.isArray(current)) setOwn(original, field, current.filter((v) => !patchValue.some((d) => deepEqual(d, v))));
      continue;
    }
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    setOwn(original, key, mergeValue(original[key], patchValue, typeName, key));
  }
  for (const key of Object.keys(patch)) {
    if (key.startsWith(SET_ORDER)) applyElementOrder(original, key.slice(SET_ORDER.length), patch[key], typeName);
  }
  return original;
}

function mergeValue(current: unknown, patchValue: unknown, typeName: string | undefined, key: string): unknown {
  const strategy = fieldStrategy(typeName, key);
  const childType = resolveFieldType(typeName, key);
  if (isObject(patchValue)) {
    if (strategy?.strategy === 'replace') return withoutDirectives(patchValue);
    // An absent or differently-typed value: merge into {} so directives and
    // nulls inside the patch are cleaned the same way.
    return mergeMap(isObject(current) ? current : {}, patchValue, childType);
  }
  if (Array.isArray(patchValue)) {
    const merges = strategy !== undefined && strategy.strategy.includes('merge');
    if (!merges) return patchValue.map((item) => (isObject(item) ? withoutDirectives(item) : item));
    return mergeList(Array.isArray(current) ? current : [], patchValue, childType, strategy.mergeKey);
  }
  return patchValue;
}

function mergeList(original: unknown[], patch: unknown[], itemType: string | undefined, mergeKey: string | undefined): unknown[] {
  // kube's mergeSlice: an empty patch list merges nothing (use null to clear).
  if (patch.length === 0) return original;
  if (!patch.some(isObject)) {
    // Primitive merge list: union, keeping the original order first.
    const out = [...original];
    for (const v of patch) if (!out.some((o) => deepEqual(o, v))) out.push(v);
    return out;
  }
  if (mergeKey === undefined) throw badRequest('merging an object in a list requires a merge key');
  if (patch.some((item) => isObject(item) && item[PATCH] === 'replace')) {
    return patch.filter((item) => !(isObject(item) && item[PATCH] === 'replace'))
      .map((item) => (isObject(item) ? withoutDirectives(item) : item));
  }
  let out = [...original];
  for (const item of patch) {
    if (!isObject(item)) throw badRequest(`merging a list of objects: found non-object ${JSON.stringify(item)}`);
    if (!(mergeKey in item)) {
      throw badRequest(`map: ${goMap(item)} does not contain declared merge key: ${mergeKey}`);
    }
    const index = out.findIndex((o) => isObject(o) && deepEqual(o[mergeKey], item[mergeKey]));
    if (item[PATCH] === 'delete') {
      out = out.filter((o) => !(isObject(o) && deepEqual(o[mergeKey], item[mergeKey])));
      continue;
    }
    const existing = out[index];
    if (index >= 0 && isObject(existing)) out[index] = mergeMap(existing, item, itemType);
    else out.push(mergeMap({}, item, itemType));
  }
  return out;
}

/** `$retainKeys`: drop from the original every key the list does not name. */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  const retain = patch[RETAIN_KEYS];
  if (retain === undefined) return;
  if (!Array.isArray(retain)) throw badRequest('invalid patch: $retainKeys must be a list of strings');
  const keep = new Set(retain.map(String));
  for (const key of Object.keys(patch)) {
    if (!key.startsWith('$') && patch[key] !== null && !keep.has(key)) {
      throw new ApiError('Invalid', 'the server rejected our request due to an error in our request');
    }
  }
  for (const key of Object.keys(original)) if (!keep.has(key)) delete original[key];
}

/**
 * `$setElementOrder/<field>`: items the order names come in that order; items
 * only the server has keep their place relative to them, as kube's
 * mergeSortedSlice does.
 */
function applyElementOrder(target: JsonMap, field: string, order: unknown, typeName: string | undefined): void {
  const list = target[field];
  if (!Array.isArray(list) || !Array.isArray(order)) return;
  const mergeKey = fieldStrategy(typeName, field)?.mergeKey;
  const keyOf = (v: unknown): unknown => (mergeKey !== undefined && isObject(v) ? v[mergeKey] : v);
  const orderKeys = order.map(keyOf);
  const rank = (v: unknown): number => orderKeys.findIndex((k) => deepEqual(k, keyOf(v)));
  const left = list.filter((v) => rank(v) >= 0).sort((a, b) => rank(a) - rank(b));
  const right = list.filter((v) => rank(v) < 0);
  const serverIndex = (v: unknown): number => list.findIndex((o) => deepEqual(keyOf(o), keyOf(v)));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else if (serverIndex(left[i]) < serverIndex(right[j])) out.push(left[i++]);
    else out.push(right[j++]);
  }
  setOwn(target, field, out);
}

function withoutDirectives(map: JsonMap): JsonMap {
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(map)) {
    if (k === PATCH || k === RETAIN_KEYS || k.startsWith(SET_ORDER) || k.startsWith(DELETE_FROM)) continue;
    setOwn(out, k, isObject(v) ? withoutDirectives(v) : v);
  }
  return out;
}

/** Go's fmt of a map[string]interface{}, as in kube's merge-key error. */
function goMap(map: JsonMap): string {
  return `map[${Object.keys(map).sort().map((k) => `${k}:${String(map[k])}`).join(' ')}]`;
}
