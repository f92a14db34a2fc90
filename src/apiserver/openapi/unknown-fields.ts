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
  const root = definitions[definitionName(group, version, kind)];
  if (!root) return [];
  const out: string[] = [];
  walk(compile(root, definitions), obj, [], out);
  return out;
}

const names = new Map<string, string>();

function definitionName(group: string, version: string, kind: string): string {
  const key = `${group}/${version}/${kind}`;
  let name = names.get(key);
  if (name === undefined) {
    name = definitionNameOfKind(group, version, kind);
    names.set(key, name);
  }
  return name;
}

// Runs on every write of a built-in kind, so each schema node is resolved ($ref hops) and reduced to
// what the walk asks once, then remembered by schema object; and the path of a field is only spelled
// out when it is unknown (a stack of segments, not a string concatenated per field visited).
interface Node {
  preserve: boolean;
  properties: Record<string, Schema> | undefined;
  additional: Schema | boolean | undefined;
  items: Schema | undefined;
  definitions: Definitions;
}

const compiledByDefinitions = new WeakMap<Definitions, WeakMap<Schema, Node>>();

function compile(schema: Schema, definitions: Definitions): Node {
  let cache = compiledByDefinitions.get(definitions);
  if (!cache) {
    cache = new WeakMap();
    compiledByDefinitions.set(definitions, cache);
  }
  let node = cache.get(schema);
  if (!node) {
    const s = resolve(schema, definitions);
    node = {
      preserve: s['x-kubernetes-preserve-unknown-fields'] === true,
      properties: s.properties as Record<string, Schema> | undefined,
      additional: s.additionalProperties as Schema | boolean | undefined,
      items: s.items as Schema | undefined,
      definitions,
    };
    cache.set(schema, node);
  }
  return node;
}

function resolve(schema: Schema, definitions: Definitions): Schema {
  let s = schema;
  // A $ref may point at another $ref-only schema; follow a few hops at most.
  for (let i = 0; i < 8 && typeof s.$ref === 'string'; i++) {
    s = definitions[(s.$ref as string).replace('#/definitions/', '')] ?? {};
  }
  return s;
}

/** Segments are field names, or list indexes as numbers: ["spec", "containers", 0, "bogus"] → "spec.containers[0].bogus". */
function spell(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out;
}

function walk(node: Node, value: unknown, path: Array<string | number>, out: string[]): void {
  if (value === null || typeof value !== 'object') return;
  if (node.preserve) return;
  if (Array.isArray(value)) {
    const { items } = node;
    if (!items) return;
    const child = compile(items, node.definitions);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      walk(child, value[i], path, out);
      path.pop();
    }
    return;
  }
  const { properties, additional } = node;
  for (const field of Object.keys(value)) {
    const sub = properties?.[field];
    const schema = sub ?? (additional && typeof additional === 'object' ? additional : undefined);
    path.push(field);
    if (schema) walk(compile(schema, node.definitions), (value as Record<string, unknown>)[field], path, out);
    else if (properties && !additional) out.push(spell(path));
    // no properties and no additionalProperties: a free-form object, anything goes
    path.pop();
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
