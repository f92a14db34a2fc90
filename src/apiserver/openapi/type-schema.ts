// Maps one client-node attribute type ("Array<V1Container>", "number"/int32,
// "{ [key: string]: string; }", "IntOrString", "Date") to the OpenAPI schema
// kube-apiserver publishes for it. Pure: class names resolve through `refOf`.
import { INTSTR, MICRO_TIME, TIME } from './definition-names.ts';

export type Schema = Record<string, unknown>;

/** Returns the definition name of a model class, or undefined if unknown. */
export type RefResolver = (className: string) => string | undefined;

const ARRAY = /^Array<(.+)>$/;
const MAP = /^\{ \[key: string\]: (.+); \}$/;

export function refSchema(definitionName: string): Schema {
  return { $ref: `#/definitions/${definitionName}` };
}

export function typeSchema(type: string, format: string, refOf: RefResolver): Schema {
  const array = ARRAY.exec(type);
  if (array?.[1]) return { type: 'array', items: typeSchema(array[1], format, refOf) };
  const map = MAP.exec(type);
  if (map?.[1]) return { type: 'object', additionalProperties: typeSchema(map[1], format, refOf) };
  switch (type) {
    case 'string':
      return format ? { type: 'string', format } : { type: 'string' };
    case 'number':
      if (format.startsWith('int')) return { type: 'integer', format };
      return format ? { type: 'number', format } : { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
      // Date stands for metav1.Time, or MicroTime when the format says so.
      return refSchema(format === 'date-time-micro' ? MICRO_TIME : TIME);
    case 'IntOrString':
      return refSchema(INTSTR);
    case 'object':
      return { type: 'object' };
    case 'any':
      // RawExtension, JSON and friends: any JSON value, nothing to check below.
      // Never `{}`: kubectl explain's templates treat an empty schema as missing.
      return { 'x-kubernetes-preserve-unknown-fields': true };
  }
  const ref = refOf(type);
  return ref ? refSchema(ref) : {};
}

/** Class names a type string mentions, for walking the model graph. */
export function referencedClasses(type: string): string[] {
  const array = ARRAY.exec(type);
  if (array?.[1]) return referencedClasses(array[1]);
  const map = MAP.exec(type);
  if (map?.[1]) return referencedClasses(map[1]);
  return /^[A-Z][A-Za-z0-9]*$/.test(type) && type !== 'Date' && type !== 'IntOrString' ? [type] : [];
}
