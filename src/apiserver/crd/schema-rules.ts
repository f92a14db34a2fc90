// The OpenAPI-level rules apiextensions applies to every node of a CRD schema
// (ValidateCustomResourceDefinitionOpenAPISchema): unsupported keywords,
// defaults where they cannot work, list/map extensions that must agree with
// the type. Structurality is checked separately (structural-schema.ts).
import type { StatusCause } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { child, forbidden, invalid, key, notSupported, required } from './field-errors.ts';

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

interface Ctx {
  isRoot: boolean;
  insideMeta: boolean;
  /** Why defaults are forbidden here; undefined when they are allowed. */
  noDefaults?: string;
}

export function validateSchemaRules(schema: JSONSchemaProps, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  if (schema.nullable) errs.push(forbidden(child(path, 'nullable'), 'nullable cannot be true at the root'));
  errs.push(...walk(schema, path, { isRoot: true, insideMeta: false }));
  return errs;
}

function walk(s: JSONSchemaProps, path: string, ctx: Ctx): StatusCause[] {
  const errs = nodeRules(s, path, ctx);
  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length > 0 && s.additionalProperties !== true) {
      errs.push(forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    if (typeof s.additionalProperties === 'object') {
      // Pruning a default inside a metadata map has no value to go by.
      const sub = ctx.insideMeta ? { ...ctx, isRoot: false, noDefaults: 'inside additionalProperties applying to object metadata' } : { ...ctx, isRoot: false };
      errs.push(...walk(s.additionalProperties, child(path, 'additionalProperties'), sub));
    }
  }
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    let sub: Ctx = { ...ctx, isRoot: false };
    if ((ctx.isRoot || s['x-kubernetes-embedded-resource']) && META_FIELDS.has(name)) {
      sub = { ...sub, insideMeta: true };
      if (ctx.isRoot) sub.noDefaults = `in top-level ${name}`;
    }
    errs.push(...walk(prop, key(child(path, 'properties'), name), sub));
  }
  const nestedCtx = { ...ctx, isRoot: false };
  if (s.not) errs.push(...walk(s.not, child(path, 'not'), nestedCtx));
  for (const j of ['allOf', 'oneOf', 'anyOf'] as const) (s[j] ?? []).forEach((v, i) => errs.push(...walk(v, `${child(path, j)}[${i}]`, nestedCtx)));
  if (Array.isArray(s.items)) s.items.forEach((v, i) => errs.push(...walk(v, `${child(path, 'items')}[${i}]`, nestedCtx)));
  else if (s.items) errs.push(...walk(s.items, child(path, 'items'), nestedCtx));
  errs.push(...extensionRules(s, path));
  return errs;
}

function nodeRules(s: JSONSchemaProps, path: string, ctx: Ctx): StatusCause[] {
  const errs: StatusCause[] = [];
  if (s.type && !OPENAPI_TYPES.includes(s.type)) errs.push(notSupported(child(path, 'type'), s.type, OPENAPI_TYPES));
  if (s.default !== undefined && ctx.noDefaults !== undefined) errs.push(forbidden(child(path, 'default'), `must not be set ${ctx.noDefaults}`.trim()));
  if (s.id) errs.push(forbidden(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (s.patternProperties && Object.keys(s.patternProperties).length) errs.push(forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (s.definitions && Object.keys(s.definitions).length) errs.push(forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbidden(child(path, '$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) errs.push(forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideMeta && s['x-kubernetes-embedded-resource']) errs.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  if (s.uniqueItems) errs.push(forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  return errs;
}

function extensionRules(s: JSONSchemaProps, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  if (preserve === false) errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && s.type !== 'object') {
    errs.push(s.type ? invalid(child(path, 'type'), s.type, 'must be object if x-kubernetes-map-type is specified') : required(child(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  const listType = s['x-kubernetes-list-type'];
  const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
  if (listType !== undefined && s.type !== 'array') {
    errs.push(s.type ? invalid(child(path, 'type'), s.type, 'must be array if x-kubernetes-list-type is specified') : required(child(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(invalid(child(child(path, 'items'), 'x-kubernetes-map-type'), listType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) errs.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapKeys.length > 0) {
    if (listType === undefined) errs.push(required(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(child(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') errs.push(...mapListRules(s, items, mapKeys, path));
  if (items && (listType === 'set' || listType === 'map') && items.nullable) {
    errs.push(forbidden(child(child(path, 'items'), 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  }
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    // CEL rules are not evaluated by this server; only their shape is checked.
    if (!rule.rule?.trim()) errs.push(required(child(`${child(path, 'x-kubernetes-validations')}[${i}]`, 'rule'), 'rule is not specified'));
  });
  return errs;
}

function mapListRules(s: JSONSchemaProps, items: JSONSchemaProps | undefined, mapKeys: string[], path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  const itemsPath = child(path, 'items');
  if (mapKeys.length === 0) errs.push(required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (!s.items) errs.push(required(itemsPath, 'must have a schema if x-kubernetes-list-type is map'));
  if (!items) return errs;
  if (items.type !== 'object') {
    errs.push(invalid(child(itemsPath, 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    return errs;
  }
  const seen = new Set<string>();
  const requiredKeys = new Set(items.required ?? []);
  for (const k of mapKeys) {
    const prop = items.properties?.[k];
    const propPath = key(child(itemsPath, 'properties'), k);
    if (!prop) {
      errs.push(invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
    } else {
      if (prop.type === 'array' || prop.type === 'object') errs.push(invalid(child(propPath, 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      if (!requiredKeys.has(k) && prop.default === undefined) errs.push(required(child(propPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      if (prop.nullable) errs.push(forbidden(child(propPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
    if (seen.has(k)) errs.push(invalid(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
    seen.add(k);
  }
  return errs;
}
