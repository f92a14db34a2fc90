// Nulls in a server-side apply configuration for a custom resource. kube drops a
// null the schema neither allows (nullable) nor defaults when it decodes a
// request body, but an apply configuration is merged, not decoded: there such a
// null reaches schema validation and the whole apply is refused (422, "Invalid
// value: "null": spec.x in body must be of type string"), as a real 1.20 answers.
// Our apply merge skips nulls, so they are looked for in the configuration itself.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { typeInvalid } from './field-errors.ts';

function childSchema(s: JSONSchemaProps | undefined, key: string): JSONSchemaProps | undefined {
  if (!s) return undefined;
  return s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
}

function typeOf(s: JSONSchemaProps): string {
  return s['x-kubernetes-int-or-string'] ? 'integer,string' : s.type ?? '';
}

function walk(x: unknown, s: JSONSchemaProps | undefined, path: string, out: StatusCause[]): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((item, i) => walk(item, items, `${path}[${i}]`, out));
    return;
  }
  if (!isObject(x)) return;
  for (const [key, value] of Object.entries(x)) {
    const sub = childSchema(s, key);
    const field = path ? `${path}.${key}` : key;
    if (value === null) {
      // A typed field only: an untyped (preserve-unknown-fields) one may hold null.
      if (sub && !sub.nullable && sub.default === undefined && typeOf(sub)) {
        out.push(typeInvalid(field, 'null', `${field} in body must be of type ${typeOf(sub)}: "null"`));
      }
    } else walk(value, sub, field, out);
  }
}

/** The causes for non-nullable, non-defaulted nulls in an applied configuration (metadata and type fields excluded). */
export function appliedNullCauses(applied: unknown, schema: JSONSchemaProps): StatusCause[] {
  if (!isObject(applied)) return [];
  const out: StatusCause[] = [];
  const { apiVersion: _a, kind: _k, metadata: _m, ...body } = applied;
  walk(body, schema, '', out);
  return out;
}
