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
const IGNORED_META: ReadonlySet<string> = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink']);

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
  // Copied key by key rather than spread-then-delete: delete turns the copy into a slow dictionary object.
  const meta: JsonMap = {};
  let kept = 0;
  for (const k of Object.keys(metadata)) {
    if (IGNORED_META.has(k)) continue;
    meta[k] = metadata[k];
    kept++;
  }
  return kept > 0 ? { ...rest, metadata: meta } : rest;
}

/** The set of fields an object sets, typed by `typeName` (undefined = untyped: lists atomic). */
export function fieldSetOf(obj: JsonMap, typeName: string | undefined): FieldSet {
  const out: FieldSet = new Set();
  walkMap(trackedContent(obj), typeName, '', out);
  return out;
}

/** A field set with what the walk saw on the way, so callers need not parse paths back and look values up. */
export interface FieldWalk {
  set: FieldSet;
  /** Each member's value: what valueAt(obj, path) finds (the first of duplicate list items, as it does). */
  values: Map<string, unknown>;
  /** Members with members below them (keyed list items with fields): parentsOf(set), restricted to members. */
  parents: Set<string>;
  /** Members met so far, duplicates included (how a list item knows it had members below). */
  visits: number;
  /**
   * Inside a keyed list item whose key an earlier item already had (kube refuses such lists; the
   * walk still meets them): valueAt resolves such a path through the first item, so what only the
   * later item holds has no value there.
   */
  shadowed: number;
  /** Set by fieldWalkOf's `primitiveValues`: object and array values are recorded as this marker instead. */
  objectMarker?: symbol;
}

/**
 * fieldSetOf, plus each member's value and which members are parents, in the same one walk. An
 * update's bookkeeping compared each member's old and new value by parsing its path back and
 * walking both objects from the root: per write, tens of thousands of JSON.parse calls for a
 * 10,000-label object (ADR 0026).
 */
export function fieldWalkOf(obj: JsonMap, typeName: string | undefined, options: { objectMarker?: symbol } = {}): FieldWalk {
  const walk: FieldWalk = { set: new Set(), values: new Map(), parents: new Set(), visits: 0, shadowed: 0 };
  if (options.objectMarker) walk.objectMarker = options.objectMarker;
  walkMap(trackedContent(obj), typeName, '', walk.set, walk);
  return walk;
}

function addMember(out: FieldSet, walk: FieldWalk | undefined, member: string, value: unknown): void {
  out.add(member);
  if (!walk) return;
  walk.visits++;
  if (walk.values.has(member)) return;
  if (walk.shadowed > 0) walk.values.set(member, undefined);
  else walk.values.set(member, walk.objectMarker !== undefined && typeof value === 'object' && value !== null ? walk.objectMarker : value);
}

// Paths are built as their JSON text directly: `prefix` is the encoded elements so far, without the
// brackets, so a member is `[${prefix},${element}]`. Equal to JSON.stringify(path) (an array of strings
// encodes as its elements' encodings joined by commas), without copying and re-encoding the path per leaf.
function extend(prefix: string, element: string): string {
  return prefix === '' ? JSON.stringify(element) : `${prefix},${JSON.stringify(element)}`;
}

function walkMap(map: JsonMap, typeName: string | undefined, prefix: string, out: FieldSet, walk?: FieldWalk): void {
  for (const key in map) { // for...in: no key array per map (a label map may hold 10,000); parsed JSON has own keys only
    const value = map[key];
    if (value === null || value === undefined) continue;
    const path = extend(prefix, `f:${key}`);
    const childType = resolveFieldType(typeName, key);
    if (isObject(value)) {
      if (isAtomicStruct(childType) || isEmpty(value)) addMember(out, walk, `[${path}]`, value);
      else walkMap(value, childType, path, out, walk);
    } else if (Array.isArray(value)) {
      walkList(value, typeName, key, path, out, walk);
    } else {
      addMember(out, walk, `[${path}]`, value);
    }
  }
}

function isEmpty(map: JsonMap): boolean {
  for (const _ in map) return false;
  return true;
}

function walkList(list: unknown[], typeName: string | undefined, key: string, path: string, out: FieldSet, walk?: FieldWalk): void {
  const strategy = fieldStrategy(typeName, key);
  const keys = listKeysOf(strategy);
  if (keys && list.every(isObject)) {
    for (const item of list) {
      const element = itemKey(item, keys);
      if (element === undefined) continue;
      const itemPath = extend(path, element);
      const member = `[${itemPath}]`;
      const duplicate = walk !== undefined && walk.set.has(member);
      addMember(out, walk, member, item);
      const before = walk?.visits ?? 0;
      if (walk && duplicate) walk.shadowed++;
      walkMap(item, resolveFieldType(typeName, key), itemPath, out, walk);
      if (walk && duplicate) walk.shadowed--;
      if (walk && walk.visits > before) walk.parents.add(member);
    }
  } else if (isPrimitiveMergeList(strategy) && !list.some(isObject)) {
    for (const v of list) addMember(out, walk, `[${extend(path, `v:${JSON.stringify(v)}`)}]`, v);
  } else {
    addMember(out, walk, `[${path}]`, list); // atomic list: owned as one leaf
  }
}

/** FieldsV1 tree from a set. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  const root: FieldsV1 = {};
  const members: FieldsV1[] = [];
  for (const encoded of set) {
    let node = root;
    for (const el of JSON.parse(encoded) as FieldPath) node = node[el] ??= {};
    members.push(node);
  }
  // A member that also has children is marked with "." (after all members are in: a child may come later).
  for (const node of members) if (Object.keys(node).some((k) => k !== '.')) node['.'] = {};
  return root;
}

/** Set from a FieldsV1 tree: empty nodes and nodes marked "." are members. */
export function fromFieldsV1(tree: unknown, prefix: FieldPath = [], out: FieldSet = new Set()): FieldSet {
  let encoded = '';
  for (const el of prefix) encoded = extend(encoded, el);
  collectMembers(tree, encoded, out);
  return out;
}

function collectMembers(tree: unknown, prefix: string, out: FieldSet): void {
  if (!isObject(tree)) return;
  for (const el of Object.keys(tree)) {
    if (el === '.') continue;
    const child = tree[el];
    const path = extend(prefix, el);
    if (!isObject(child) || Object.keys(child).length === 0 || '.' in child) out.add(`[${path}]`);
    collectMembers(child, path, out);
  }
}

/**
 * Every path that has a member strictly below it, encoded as members are: `parents.has(p)` is
 * `hasChildIn(set, p)` for the whole set at once (one pass instead of a scan of the set per path).
 */
export function parentsOf(set: FieldSet): Set<string> {
  const parents = new Set<string>();
  for (const encoded of set) {
    const path = JSON.parse(encoded) as FieldPath;
    let prefix = '';
    for (let i = 0; i < path.length - 1; i++) {
      prefix = extend(prefix, path[i] ?? '');
      parents.add(`[${prefix}]`);
    }
  }
  return parents;
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
