// Every `default` in a CRD schema must itself validate against the schema of
// its node (apiextensions' ValidateDefaults). Causes are reported under
// `<node>.default`, with messages relative to the default ("in body ...").
import type { StatusCause } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { child, key } from './field-errors.ts';
import { compileSchemaValidator } from './schema-validator.ts';

export function validateSchemaDefaults(schema: JSONSchemaProps, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  walk(schema, path, errs);
  return errs;
}

function walk(s: JSONSchemaProps, path: string, errs: StatusCause[]): void {
  if (s.default !== undefined) {
    const at = child(path, 'default');
    for (const c of compileSchemaValidator(s, false)(s.default)) errs.push({ ...c, field: c.field ? `${at}.${c.field}` : at });
  }
  for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, key(child(path, 'properties'), k), errs);
  if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, child(path, 'additionalProperties'), errs);
  if (s.items && !Array.isArray(s.items)) walk(s.items, child(path, 'items'), errs);
}
