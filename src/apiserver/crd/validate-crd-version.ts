// Per-version CRD validation: schema (structural first, then defaults, then
// the OpenAPI rules, in kube's order), subresources and printer columns.
import type { StatusCause } from '../../core/types.ts';
import type { CustomResourceColumnDefinition, CustomResourceDefinitionVersion, CustomResourceSubresources, JSONSchemaProps } from './crd-types.ts';
import { child, index, invalid, required } from './field-errors.ts';
import { validateSchemaDefaults } from './validate-schema-defaults.ts';
import { validateSchemaRules } from './schema-rules.ts';
import { validateStructural } from './structural-schema.ts';

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'name', 'password'];

export function validateVersion(v: CustomResourceDefinitionVersion, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  if (v.deprecationWarning !== undefined) {
    if (!v.deprecated) errs.push(invalid(child(path, 'deprecationWarning'), v.deprecationWarning, 'can only be set for deprecated versions'));
    else if (v.deprecationWarning.length > 256) errs.push(invalid(child(path, 'deprecationWarning'), v.deprecationWarning, 'must be <= 256 characters long'));
    else if (v.deprecationWarning.length === 0) errs.push(invalid(child(path, 'deprecationWarning'), v.deprecationWarning, 'must not be an empty string'));
  }
  const schema = v.schema?.openAPIV3Schema;
  if (schema) errs.push(...validateSchema(schema, child(child(path, 'schema'), 'openAPIV3Schema'), v.subresources?.status !== undefined));
  errs.push(...validateSubresources(v.subresources, child(path, 'subresources')));
  (v.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));
  return errs;
}

export function validateSchema(schema: JSONSchemaProps, path: string, statusEnabled: boolean): StatusCause[] {
  const errs: StatusCause[] = [];
  if (statusEnabled && schema.type !== undefined && schema.type !== 'object') {
    errs.push(invalid(child(path, 'type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
  }
  const structural = validateStructural(schema, path);
  if (structural.length > 0) errs.push(...structural);
  else errs.push(...validateSchemaDefaults(schema, path));
  errs.push(...validateSchemaRules(schema, path));
  return errs;
}

/** kube's validateSimpleJSONPath: a dotted path starting with '.'. */
function simpleJsonPath(s: string, path: string): StatusCause[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): StatusCause[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: StatusCause[] = [];
  const check = (value: string | undefined, name: string, prefixes: string[], under: string, isRequired: boolean): void => {
    const p = `${path}.scale.${name}`;
    if (!value) {
      if (isRequired) errs.push(required(p));
      return;
    }
    const pathErrs = simpleJsonPath(value, p);
    if (pathErrs.length) errs.push(...pathErrs);
    else if (!prefixes.some((pre) => value.startsWith(pre))) errs.push(invalid(p, value, `should be a json path under ${under}`));
  };
  check(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], '.spec', true);
  check(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], '.status', true);
  check(scale.labelSelectorPath, 'labelSelectorPath', ['.spec.', '.status.'], 'either .spec or .status', false);
  return errs;
}

function validateColumn(c: CustomResourceColumnDefinition, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  if (!c.name) errs.push(required(child(path, 'name')));
  const types = `must be one of ${COLUMN_TYPES.join(',')}`;
  if (!c.type) errs.push(required(child(path, 'type'), types));
  else if (!COLUMN_TYPES.includes(c.type)) errs.push(invalid(child(path, 'type'), c.type, types));
  if (c.format && !COLUMN_FORMATS.includes(c.format)) errs.push(invalid(child(path, 'format'), c.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  // kube reports the internal field name, JSONPath.
  if (!c.jsonPath) errs.push(required(child(path, 'JSONPath')));
  else errs.push(...simpleJsonPath(c.jsonPath, child(path, 'JSONPath')));
  return errs;
}
