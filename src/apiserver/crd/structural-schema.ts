// Is an openAPIV3Schema structural? The invariants of apiextensions'
// ValidateStructural: a type at every specified level (unless int-or-string or
// preserve-unknown-fields), no types or defaults inside anyOf/allOf/oneOf/not,
// metadata at the root restricted to name and generateName, no
// additionalProperties at the root, embedded resources are objects.
import type { StatusCause } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { child, forbidden, invalid, key, required } from './field-errors.ts';

type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** Causes sorted by their text, as kube does, so the order is stable. */
export function validateStructural(schema: JSONSchemaProps, path: string): StatusCause[] {
  const errs = [...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)];
  return errs.sort((a, b) => text(a).localeCompare(text(b)));
}

function text(c: StatusCause): string {
  return `${c.field ?? ''}: ${c.message ?? ''}`;
}

function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return s.items && !Array.isArray(s.items) ? s.items : undefined;
}

function invariants(s: JSONSchemaProps, lvl: Level, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  const items = itemsSchema(s);
  if (s.type === 'array' && !items) errs.push(required(child(path, 'items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', child(path, 'items')));
  for (const [k, v] of Object.entries(s.properties ?? {})) errs.push(...invariants(v, 'field', key(child(path, 'properties'), k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') errs.push(...invariants(s.additionalProperties, 'field', child(path, 'additionalProperties')));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errs.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));

  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), path));

  const type = s.type ?? '';
  if (embedded && type !== 'object') {
    errs.push(type ? invalid(child(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true') : required(child(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!type && !intOrString && !preserve) {
    errs.push(required(child(path, 'type'), EMPTY_TYPE_DETAIL[lvl]));
  }
  if (embedded && s.additionalProperties !== undefined) errs.push(forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type && type !== 'object') errs.push(invalid(child(path, 'type'), type, 'must be object at the root'));

  const checkMeta = lvl === 'root' || embedded;
  const props = s.properties ?? {};
  const propPath = (k: string): string => key(child(path, 'properties'), k);
  if (checkMeta && props.kind && props.kind.type !== 'string') errs.push(invalid(child(propPath('kind'), 'type'), props.kind.type ?? '', 'must be string'));
  if (checkMeta && props.apiVersion && props.apiVersion.type !== 'string') errs.push(invalid(child(propPath('apiVersion'), 'type'), props.apiVersion.type ?? '', 'must be string'));
  if (checkMeta && props.metadata && props.metadata.type !== 'object') errs.push(invalid(child(propPath('metadata'), 'type'), props.metadata.type ?? '', 'must be object'));
  if (lvl === 'root' && props.metadata && !metadataOnlyRestrictsNames(props.metadata)) {
    errs.push(forbidden(propPath('metadata'), 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** Root metadata may say `type: object` and constrain name/generateName, nothing else. */
function metadataOnlyRestrictsNames(m: JSONSchemaProps): boolean {
  const allowed = new Set(['type', 'properties', 'description', 'default']);
  if (Object.keys(m).some((k) => !allowed.has(k))) return false;
  const names = Object.keys(m.properties ?? {});
  return names.every((n) => n === 'name' || n === 'generateName');
}

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (!anyOf || anyOf.length !== 2) return false;
  const [a, b] = anyOf;
  const only = (x: JSONSchemaProps | undefined, t: string): boolean => x !== undefined && x.type === t && Object.keys(x).length === 1;
  return only(a, 'integer') && only(b, 'string');
}

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((v, i) => errs.push(...nested(v, false, `${child(path, 'anyOf')}[${i}]`)));
  (s.allOf ?? []).forEach((v, i) => errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, `${child(path, 'allOf')}[${i}]`)));
  (s.oneOf ?? []).forEach((v, i) => errs.push(...nested(v, false, `${child(path, 'oneOf')}[${i}]`)));
  if (s.not) errs.push(...nested(s.not, false, child(path, 'not')));
  if (s.pattern !== undefined) {
    try {
      new RegExp(s.pattern, 'u');
    } catch (err) {
      errs.push(invalid(child(path, 'pattern'), s.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  return errs;
}

/** Inside a logical junctor only value validations are allowed, never the shape. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: string): StatusCause[] {
  const errs = valueValidation(v, skipAnyOf, false, path);
  const items = itemsSchema(v);
  if (items) errs.push(...nested(items, false, child(path, 'items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) errs.push(...nested(p, false, key(child(path, 'properties'), k)));
  if (v.type) errs.push(forbidden(child(path, 'type'), 'must be empty to be structural'));
  if (v.additionalProperties !== undefined) errs.push(forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  if (v.default !== undefined) errs.push(forbidden(child(path, 'default'), 'must be undefined to be structural'));
  if (v.title) errs.push(forbidden(child(path, 'title'), 'must be empty to be structural'));
  if (v.description) errs.push(forbidden(child(path, 'description'), 'must be empty to be structural'));
  if (v.nullable) errs.push(forbidden(child(path, 'nullable'), 'must be false to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields']) errs.push(forbidden(child(path, 'x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource']) errs.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string']) errs.push(forbidden(child(path, 'x-kubernetes-int-or-string'), 'must be false to be structural'));
  if (v['x-kubernetes-list-map-keys']?.length) errs.push(forbidden(child(path, 'x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (v['x-kubernetes-list-type'] !== undefined) errs.push(forbidden(child(path, 'x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (v.properties?.metadata) errs.push(forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

/**
 * Fields and items named inside the root's anyOf/allOf/oneOf/not must also exist
 * in the structural part (kube checks this from the root's junctors only).
 */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string, isNested = false): StatusCause[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs: StatusCause[] = [];
  if (isNested) {
    const vItems = itemsSchema(v);
    if (vItems) errs.push(...completeness(vItems, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items'), true));
    for (const [k, vf] of Object.entries(v.properties ?? {})) {
      const sf = s.properties?.[k];
      const sp = key(child(sPath, 'properties'), k);
      const vp = key(child(vPath, 'properties'), k);
      if (!sf) errs.push(required(sp, `because it is defined in ${vp}`));
      else errs.push(...completeness(vf, sf, sp, vp, true));
    }
  }
  if (v.not) errs.push(...completeness(v.not, s, sPath, child(vPath, 'not'), true));
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) (v[j] ?? []).forEach((n, i) => errs.push(...completeness(n, s, sPath, `${child(vPath, j)}[${i}]`, true)));
  return errs;
}
