// Field sets for server-side apply, in the FieldsV1 encoding kube stores in
// metadata.managedFields: `f:<field>` for a struct or map field, `k:{...}` for
// an item of a list keyed by its merge keys (keys sorted, as structured-merge-
// diff's FieldList is), `v:<json>` for a member of a set-like primitive list,
// `.` for "this node itself" when it also has children.
//
// A path is a list of those element strings; a set of paths is a Set of their
// JSON encodings, so set algebra is plain string work.
//
// Known simplification: only leaves, keyed list items and set members are
// members; kube also marks some maps (labels) and optional structs with `.`.
// Ownership and conflicts do not depend on those markers.
import { isObject } from '../types.ts';
import { fieldStrategy, isAtomicStruct, isPrimitiveMergeList, listKeysOf, resolveFieldType } from './type-resolver.ts';
import type { JsonMap } from './json-value.ts';

export type FieldPath = string[];
export type FieldSet = Set<string>;
export type FieldsV1 = { [element: string]: FieldsV1 };

/** List-map key fields kube defaults, so an item that omits them still has an identity. */
const KEY_DEFAULTS: Record<string, unknown> = { protocol: 'TCP' };

/** Fields the apiserver owns and that never appear in managedFields. */
const IGNORED_META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink'];

/** `k:{...}` element for a list item, or undefined when it lacks every key. */
export function itemKey(item: JsonMap, keys: string[]): string | undefined {
  const picked: JsonMap = {};
  for (const k of [...keys].sort()) {
    const v = item[k] ?? KEY_DEFAULTS[k];
    if (v !== undefined) picked[k] = v;
  }
  return Object.keys(picked).length === 0 ? undefined : `k:${JSON.stringify(picked)}`;
}

/** The object minus what managedFields never tracks (apiVersion, kind, server-set metadata). */
export function trackedContent(obj: JsonMap): JsonMap {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  if (!isObject(metadata)) return rest;
  const meta: JsonMap = { ...metadata };
  for (const k of IGNORED_META) delete meta[k];
  return Object.keys(meta).length > 0 ? { ...rest, metadata: meta } : rest;
}

/** The set of fields an object sets, typed by `typeName` (undefined = untyped: lists atomic). */
export function fieldSetOf(obj: JsonMap, typeName: string | undefined): FieldSet {
  const out: FieldSet = new Set();
  walkMap(trackedContent(obj), typeName, [], out);
  return out;
}

function walkMap(map: JsonMap, typeName: string | undefined, prefix: FieldPath, out: FieldSet): void {
  for (const [key, value] of Object.entries(map)) {
    if (value === null || value === undefined) continue;
    const path = [...prefix, `f:${key}`];
    const childType = resolveFieldType(typeName, key);
    if (isObject(value)) {
      if (isAtomicStruct(childType) || Object.keys(value).length === 0) out.add(JSON.stringify(path));
      else walkMap(value, childType, path, out);
    } else if (Array.isArray(value)) {
      walkList(value, typeName, key, path, out);
    } else {
      out.add(JSON.stringify(path));
    }
  }
}

function walkList(list: unknown[], typeName: string | undefined, key: string, path: FieldPath, out: FieldSet): void {
  const strategy = fieldStrategy(typeName, key);
  const keys = listKeysOf(strategy);
  if (keys && list.every(isObject)) {
    for (const item of list) {
      const element = itemKey(item, keys);
      if (element === undefined) continue;
      out.add(JSON.stringify([...path, element]));
      walkMap(item, resolveFieldType(typeName, key), [...path, element], out);
    }
  } else if (isPrimitiveMergeList(strategy) && !list.some(isObject)) {
    for (const v of list) out.add(JSON.stringify([...path, `v:${JSON.stringify(v)}`]));
  } else {
    out.add(JSON.stringify(path)); // atomic list: owned as one leaf
  }
}

/** FieldsV1 tree from a set. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  const root: FieldsV1 = {};
  for (const encoded of set) {
    let node = root;
    for (const el of JSON.parse(encoded) as FieldPath) node = node[el] ??= {};
  }
  // A member that also has children is marked with ".".
  for (const encoded of set) {
    let node: FieldsV1 | undefined = root;
    for (const el of JSON.parse(encoded) as FieldPath) node = node?.[el];
    if (node && Object.keys(node).some((k) => k !== '.')) node['.'] = {};
  }
  return root;
}

/** Set from a FieldsV1 tree: empty nodes and nodes marked "." are members. */
export function fromFieldsV1(tree: unknown, prefix: FieldPath = [], out: FieldSet = new Set()): FieldSet {
  if (!isObject(tree)) return out;
  for (const [el, child] of Object.entries(tree)) {
    if (el === '.') continue;
    const path = [...prefix, el];
    if (!isObject(child) || Object.keys(child).length === 0 || '.' in child) out.add(JSON.stringify(path));
    fromFieldsV1(child, path, out);
  }
  return out;
}

/** ".spec.containers[name=\"x\"].image", as structured-merge-diff prints paths. */
export function pathString(path: FieldPath): string {
  return path.map((el) => {
    if (el.startsWith('f:')) return `.${el.slice(2)}`;
    if (el.startsWith('v:')) return `[=${el.slice(2)}]`;
    if (el.startsWith('k:')) {
      const keys = JSON.parse(el.slice(2)) as JsonMap;
      return `[${Object.entries(keys).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    }
    return el;
  }).join('');
}

/** Value at a path, or undefined. */
export function valueAt(obj: unknown, path: FieldPath): unknown {
  let node: unknown = obj;
  for (const el of path) {
    if (el.startsWith('f:') && isObject(node)) node = node[el.slice(2)];
    else if (el.startsWith('k:') && Array.isArray(node)) {
      const keys = JSON.parse(el.slice(2)) as JsonMap;
      node = node.find((item) => isObject(item) && itemKey(item, Object.keys(keys)) === el);
    } else if (el.startsWith('v:') && Array.isArray(node)) {
      const want = el.slice(2);
      node = node.find((v) => JSON.stringify(v) === want);
    } else return undefined;
  }
  return node;
}
