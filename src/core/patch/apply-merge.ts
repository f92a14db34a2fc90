// How server-side apply merges an applied configuration into the live object,
// and removes the fields an applier gave up. Unlike strategic merge there are
// no directives: keyed lists merge by all their list-map keys, set-like
// primitive lists union, every other list and every atomic struct is replaced
// whole. Nulls in the applied configuration carry no value and are skipped.
import { isObject } from '../types.ts';
import { cloneJson, setOwn } from './json-value.ts';
import type { JsonMap } from './json-value.ts';
import { itemKey } from './fields-v1.ts';
import type { FieldPath } from './fields-v1.ts';
import { fieldStrategy, isAtomicStruct, isPrimitiveMergeList, listKeysOf, resolveFieldType } from './type-resolver.ts';

/**
 * The result shares the subtrees the apply does not touch with `live`, which must be the caller's
 * own copy (serverSideApply clones the stored object once): a deep clone per level copied a 1 MB
 * object once per level of depth (issue 13).
 */
export function mergeApplied(live: JsonMap, applied: JsonMap, typeName: string | undefined): JsonMap {
  const out = shallowCopy(live);
  for (const [key, value] of Object.entries(applied)) {
    if (value === null || value === undefined) continue;
    const childType = resolveFieldType(typeName, key);
    const current = out[key];
    if (isObject(value)) {
      const base = !isAtomicStruct(childType) && isObject(current) ? current : {};
      setOwn(out, key, mergeApplied(base, value, childType));
    } else if (Array.isArray(value)) {
      setOwn(out, key, mergeList(Array.isArray(current) ? current : [], value, typeName, key));
    } else {
      setOwn(out, key, value);
    }
  }
  return out;
}

/** Spread defines own data properties (a `__proto__` key stays a key), as setOwn does, at a fraction of its cost. */
function shallowCopy(map: JsonMap): JsonMap {
  return { ...map };
}

function mergeList(live: unknown[], applied: unknown[], typeName: string | undefined, key: string): unknown[] {
  const strategy = fieldStrategy(typeName, key);
  const keys = listKeysOf(strategy);
  if (keys && applied.every(isObject)) {
    const itemType = resolveFieldType(typeName, key);
    const out = [...live];
    for (const item of applied) {
      const id = itemKey(item, keys);
      const index = out.findIndex((o) => isObject(o) && itemKey(o, keys) === id);
      const existing = out[index];
      if (index >= 0 && isObject(existing)) out[index] = mergeApplied(existing, item, itemType);
      else out.push(mergeApplied({}, item, itemType));
    }
    return out;
  }
  if (isPrimitiveMergeList(strategy) && !applied.some(isObject)) {
    const out = cloneJson(live);
    for (const v of applied) if (!out.some((o) => JSON.stringify(o) === JSON.stringify(v))) out.push(v);
    return out;
  }
  return cloneJson(applied);
}

/** Removes each path (a field, a keyed item or a set member) from `obj`, in place. */
export function removePaths(obj: JsonMap, paths: FieldPath[]): void {
  for (const path of [...paths].sort((a, b) => a.length - b.length)) {
    const last = path[path.length - 1];
    let parent: unknown = obj;
    for (const el of path.slice(0, -1)) parent = step(parent, el);
    if (last === undefined) continue;
    if (last.startsWith('f:') && isObject(parent)) {
      delete parent[last.slice(2)];
    } else if (Array.isArray(parent)) {
      const index = parent.findIndex((item) => matches(item, last));
      if (index >= 0) parent.splice(index, 1);
    }
  }
}

function step(node: unknown, el: string): unknown {
  if (el.startsWith('f:')) return isObject(node) ? node[el.slice(2)] : undefined;
  return Array.isArray(node) ? node.find((item) => matches(item, el)) : undefined;
}

function matches(item: unknown, el: string): boolean {
  if (el.startsWith('v:')) return JSON.stringify(item) === el.slice(2);
  if (el.startsWith('k:') && isObject(item)) return itemKey(item, Object.keys(JSON.parse(el.slice(2)) as JsonMap)) === el;
  return false;
}
