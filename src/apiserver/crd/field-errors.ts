// Kubernetes field errors (k8s.io/apimachinery/pkg/util/validation/field) as
// StatusCauses: the cause type and the "<Type>: <value>: <detail>" message body
// that kube-apiserver puts in details.causes. Keeping the wording in one place
// is what lets clients (and the contract tests) match real apiserver output.
import type { StatusCause } from '../../core/types.ts';

/** field.Path rendering: `a.b`, `a[0]`, `a[key]` (keys are not quoted, as in kube). */
export function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

/**
 * How kube prints a bad value: strings quoted, scalars bare, null as null,
 * anything else as compact JSON (apimachinery >= 1.30 prefers JSON).
 */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function cause(type: string, field: string, message: string): StatusCause {
  return { type, message, field };
}

function withDetail(head: string, detail: string): string {
  return detail ? `${head}: ${detail}` : head;
}

export function required(field: string, detail = ''): StatusCause {
  return cause('FieldValueRequired', field, withDetail('Required value', detail));
}

export function invalid(field: string, value: unknown, detail = ''): StatusCause {
  return cause('FieldValueInvalid', field, withDetail(`Invalid value: ${formatValue(value)}`, detail));
}

/** Type errors print as "Invalid value" too, with their own cause type. */
export function typeInvalid(field: string, value: unknown, detail: string): StatusCause {
  return cause('FieldValueTypeInvalid', field, withDetail(`Invalid value: ${formatValue(value)}`, detail));
}

export function notSupported(field: string, value: unknown, valid: string[]): StatusCause {
  const detail = valid.length > 0 ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return cause('FieldValueNotSupported', field, withDetail(`Unsupported value: ${formatValue(value)}`, detail));
}

export function forbidden(field: string, detail = ''): StatusCause {
  return cause('FieldValueForbidden', field, withDetail('Forbidden', detail));
}

export function duplicate(field: string, value: unknown): StatusCause {
  return cause('FieldValueDuplicate', field, `Duplicate value: ${formatValue(value)}`);
}

/** TooLong never echoes the value (it may be huge). */
export function tooLong(field: string, max: number): StatusCause {
  return cause('FieldValueTooLong', field, `Too long: ${max >= 0 ? `may not be longer than ${max}` : 'value is too long'}`);
}

export function tooMany(field: string, actual: number, max: number): StatusCause {
  const detail = max >= 0 ? `must have at most ${max} items` : 'has too many items';
  return cause('FieldValueTooMany', field, actual >= 0 ? `Too many: ${actual}: ${detail}` : `Too many: ${detail}`);
}

export function immutable(field: string, value: unknown): StatusCause {
  return invalid(field, value, 'field is immutable');
}
