// Validates a value against a CRD openAPIV3Schema with ajv, and reports the
// failures as kube-apiserver does (kube-openapi messages, apiextensions'
// mapping to field errors): field `spec.replicas`, message
// `Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
// The schema is first rewritten into plain JSON Schema: OpenAPI's boolean
// exclusiveMaximum, nullable, int-or-string and the kube formats have no
// direct ajv equivalent.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { StatusCause } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { KUBE_FORMATS } from './schema-formats.ts';
import { invalid, notSupported, required, tooLong, tooMany, typeInvalid } from './field-errors.ts';

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, logger: false, validateSchema: false });
for (const [name, check] of Object.entries(KUBE_FORMATS)) ajv.addFormat(name, check);

type AjvSchema = Record<string, unknown>;

/** Rewrites a CRD schema node into JSON Schema draft-07 for ajv. */
export function toAjvSchema(s: JSONSchemaProps, isRoot = false): AjvSchema {
  const out: AjvSchema = {};
  for (const k of ['pattern', 'maxLength', 'minLength', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties', 'required'] as const) {
    if (s[k] !== undefined) out[k] = s[k];
  }
  if (s.maximum !== undefined) out[s.exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'] = s.maximum;
  if (s.minimum !== undefined) out[s.exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'] = s.minimum;
  if (s.enum !== undefined) out.enum = s.nullable ? [...s.enum, null] : s.enum;
  if (s.format && KUBE_FORMATS[s.format]) out.format = s.format;
  if (s['x-kubernetes-int-or-string']) out.type = s.nullable ? ['integer', 'string', 'null'] : ['integer', 'string'];
  else if (s.type) out.type = s.nullable ? [s.type, 'null'] : s.type;
  if (s.properties) {
    const props: Record<string, AjvSchema> = {};
    for (const [k, v] of Object.entries(s.properties)) {
      // The CR's metadata is validated as ObjectMeta elsewhere; the schema may only restrict names.
      props[k] = isRoot && k === 'metadata' ? metadataSchema(v) : toAjvSchema(v);
    }
    out.properties = props;
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = toAjvSchema(s.additionalProperties);
  if (s.items && !Array.isArray(s.items)) out.items = toAjvSchema(s.items);
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) if (s[j]) out[j] = s[j].map((v) => toAjvSchema(v));
  if (s.not) out.not = toAjvSchema(s.not);
  return out;
}

function metadataSchema(m: JSONSchemaProps): AjvSchema {
  const props: Record<string, AjvSchema> = {};
  for (const k of ['name', 'generateName']) {
    const p = m.properties?.[k];
    if (p) props[k] = toAjvSchema(p);
  }
  return { type: 'object', properties: props };
}

export type SchemaValidator = (value: unknown) => StatusCause[];

export function compileSchemaValidator(schema: JSONSchemaProps, isRoot = true): SchemaValidator {
  const fn: ValidateFunction = ajv.compile(toAjvSchema(schema, isRoot));
  return (value) => {
    if (fn(value)) return [];
    return (fn.errors ?? []).filter(isReported).map((e) => toCause(e, value));
  };
}

/** Failures inside an anyOf/oneOf branch are not reported; the junctor's own error is. */
function isReported(e: ErrorObject): boolean {
  return !/\/(anyOf|oneOf)\/\d+/.test(e.schemaPath) && e.keyword !== 'if';
}

/** JSON pointer to kube's path name: `spec.items[0].name`, map keys dotted. */
export function pointerToName(root: unknown, pointer: string): string {
  if (!pointer) return '';
  let name = '';
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      name += `[${seg}]`;
      cur = cur[Number(seg)];
    } else {
      name = name ? `${name}.${seg}` : seg;
      cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return name;
}

export function jsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function toCause(e: ErrorObject, root: unknown): StatusCause {
  const name = pointerToName(root, e.instancePath);
  const inBody = name ? `${name} in body` : 'in body';
  const p = e.params as Record<string, unknown>;
  const data = e.data;
  switch (e.keyword) {
    case 'required': {
      const missing = String(p.missingProperty);
      return required(name ? `${name}.${missing}` : missing);
    }
    case 'type': {
      const expected = (Array.isArray(p.type) ? p.type : String(p.type).split(',')).filter((t) => t !== 'null').join(',');
      const actual = jsonTypeName(data);
      return typeInvalid(name, actual, `${inBody} must be of type ${expected}: ${JSON.stringify(actual)}`);
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return notSupported(name, data, allowed);
    }
    case 'maxLength':
      return tooLong(name, Number(p.limit));
    case 'minLength':
      return invalid(name, data, `${inBody} should be at least ${String(p.limit)} chars long`);
    case 'maxItems':
      return tooMany(name, Array.isArray(data) ? data.length : -1, Number(p.limit));
    case 'minItems':
      return invalid(name, Array.isArray(data) ? data.length : data, `${inBody} should have at least ${String(p.limit)} items`);
    case 'maxProperties':
      return tooMany(name, data && typeof data === 'object' ? Object.keys(data).length : -1, Number(p.limit));
    case 'minProperties':
      return invalid(name, data && typeof data === 'object' ? Object.keys(data).length : data, `${inBody} should have at least ${String(p.limit)} properties`);
    case 'maximum':
      return invalid(name, data, `${inBody} should be less than or equal to ${String(p.limit)}`);
    case 'exclusiveMaximum':
      return invalid(name, data, `${inBody} should be less than ${String(p.limit)}`);
    case 'minimum':
      return invalid(name, data, `${inBody} should be greater than or equal to ${String(p.limit)}`);
    case 'exclusiveMinimum':
      return invalid(name, data, `${inBody} should be greater than ${String(p.limit)}`);
    case 'multipleOf':
      return invalid(name, data, `${inBody} should be a multiple of ${String(p.multipleOf)}`);
    case 'pattern':
      return invalid(name, data, `${inBody} should match '${String(p.pattern)}'`);
    case 'format':
      return invalid(name, data, `${inBody} must be of type ${String(p.format)}: ${JSON.stringify(data)}`);
    case 'anyOf':
      return invalid(name, '', `${inBody} must validate at least one schema (anyOf)`);
    case 'oneOf':
      return invalid(name, '', `${inBody} must validate one and only one schema (oneOf)`);
    case 'not':
      return invalid(name, '', `${inBody} must not validate the schema (not)`);
    default:
      return invalid(name, data ?? '', `${inBody} ${e.message ?? 'is invalid'}`);
  }
}
