// Structural defaulting as kube-apiserver does it on every read from the
// request body and from storage: first drop nulls the schema neither allows
// nor can default (PruneNonNullableNullsWithoutDefaults), then fill missing
// (or non-nullable null) fields from `default`, recursing into what was filled.
// Mutates in place; callers pass a copy.
import { isObject } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';

function fieldSchema(s: JSONSchemaProps | undefined, field: string): JSONSchemaProps | undefined {
  if (!s) return undefined;
  const prop = s.properties?.[field];
  if (prop) return prop;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

function itemSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.items && !Array.isArray(s.items) ? s.items : undefined;
}

export function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    for (const item of x) pruneNonNullableNulls(item, itemSchema(s));
  } else if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      const sub = fieldSchema(s, k);
      if (v === null && sub && !sub.nullable && sub.default === undefined) delete x[k];
      else pruneNonNullableNulls(v, sub);
    }
  }
}

export function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    for (const item of x) applyDefaults(item, itemSchema(s));
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(k in x) || (x[k] === null && !prop.nullable)) x[k] = structuredClone(prop.default);
  }
  for (const [k, v] of Object.entries(x)) applyDefaults(v, fieldSchema(s, k));
}
