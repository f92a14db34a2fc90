// Field validation of built-in kinds against their schema, for the request
// parameter fieldValidation: Strict answers 400 with every unknown field in
// one message, Warn sends one Warning header per field, Ignore does nothing.
// kube's wording, from its strict decoder:
//   Deployment in version "v1" cannot be handled as a Deployment:
//   strict decoding error: unknown field "spec.foo", unknown field "spec.bar"
import { badRequest, type ApiError } from '../../core/api-error.ts';
import { builtinDefinitions, type Definitions } from './builtin-definitions.ts';
import { definitionNameOfKind } from './definition-names.ts';
import type { Schema } from './type-schema.ts';

/**
 * Paths of fields the kind's schema does not declare, in kube's form:
 * "spec.foo", "spec.template.spec.containers[0].bogus". Empty for kinds with
 * no built-in schema (custom resources are pruned by their own schema).
 */
export function findUnknownFields(group: string, version: string, kind: string, obj: unknown, definitions: Definitions = builtinDefinitions()): string[] {
  const root = definitions[definitionNameOfKind(group, version, kind)];
  if (!root) return [];
  const out: string[] = [];
  walk(root, obj, '', definitions, out);
  return out;
}

function resolve(schema: Schema, definitions: Definitions): Schema {
  let s = schema;
  // A $ref may point at another $ref-only schema; follow a few hops at most.
  for (let i = 0; i < 8 && typeof s.$ref === 'string'; i++) {
    s = definitions[(s.$ref as string).replace('#/definitions/', '')] ?? {};
  }
  return s;
}

function join(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

function walk(schema: Schema, value: unknown, path: string, definitions: Definitions, out: string[]): void {
  const s = resolve(schema, definitions);
  if (value === null || typeof value !== 'object') return;
  if (s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (Array.isArray(value)) {
    const items = s.items as Schema | undefined;
    if (items) value.forEach((v, i) => walk(items, v, `${path}[${i}]`, definitions, out));
    return;
  }
  const properties = s.properties as Record<string, Schema> | undefined;
  const additional = s.additionalProperties as Schema | boolean | undefined;
  for (const [field, v] of Object.entries(value)) {
    const sub = properties?.[field];
    if (sub) walk(sub, v, join(path, field), definitions, out);
    else if (additional && typeof additional === 'object') walk(additional, v, join(path, field), definitions, out);
    else if (properties && !additional) out.push(join(path, field));
    // no properties and no additionalProperties: a free-form object, anything goes
  }
}

/** The 400 kube answers for fieldValidation=Strict. */
export function strictDecodingError(kind: string, version: string, unknown: readonly string[]): ApiError {
  const fields = unknown.map((f) => `unknown field "${f}"`).join(', ');
  return badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${fields}`);
}

/** The Warning header values kube sends for fieldValidation=Warn (one per field). */
export function unknownFieldWarnings(unknown: readonly string[]): string[] {
  return unknown.map((f) => `unknown field "${f}"`);
}
