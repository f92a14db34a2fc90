// Plain-JSON helpers for the patch engines. Trap: request bodies come from
// JSON.parse, which makes "__proto__" an ordinary own key; assigning it with
// `obj[key] = v` (or structuredClone) would instead change the prototype, so
// every write here defines an own property.
import { isObject } from '../types.ts';

export type JsonMap = Record<string, unknown>;

export function setOwn(target: JsonMap, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (isObject(value)) {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, cloneJson(v));
    return out as T;
  }
  return value;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
