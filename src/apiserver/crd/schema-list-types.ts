// x-kubernetes-list-type semantics beyond JSON Schema: a `set` holds no
// duplicate values, a `map` no two items with the same key fields. Reported as
// kube does: Duplicate value at the index of the later occurrence.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { duplicate } from './field-errors.ts';

/** JSON with sorted keys, so equal values compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export function validateListTypes(x: unknown, s: JSONSchemaProps | undefined, path = ''): StatusCause[] {
  if (!s) return [];
  const errs: StatusCause[] = [];
  if (Array.isArray(x)) {
    const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
    const listType = s['x-kubernetes-list-type'];
    if (listType === 'set') errs.push(...duplicates(x, path, (v) => v));
    if (listType === 'map') {
      const keys = s['x-kubernetes-list-map-keys'] ?? [];
      errs.push(...duplicates(x, path, (v) => (isObject(v) ? Object.fromEntries(keys.filter((k) => k in v).map((k) => [k, v[k]])) : v)));
    }
    x.forEach((item, i) => errs.push(...validateListTypes(item, items, `${path}[${i}]`)));
  } else if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      const sub = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      errs.push(...validateListTypes(v, sub, path ? `${path}.${k}` : k));
    }
  }
  return errs;
}

function duplicates(list: unknown[], path: string, keyOf: (v: unknown) => unknown): StatusCause[] {
  const seen = new Set<string>();
  const errs: StatusCause[] = [];
  list.forEach((item, i) => {
    const k = keyOf(item);
    const c = canonical(k);
    if (seen.has(c)) errs.push(duplicate(`${path}[${i}]`, k));
    seen.add(c);
  });
  return errs;
}
