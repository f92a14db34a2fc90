// Field errors as kube-apiserver words them (k8s.io/apimachinery/pkg/util/validation/field):
// the cause `message` is the error body without the field, e.g.
// `Invalid value: "Foo_Bar": a lowercase RFC 1123 ...`, and `field` is the path.
import type { StatusCause } from '../../core/types.ts';

export type CauseType =
  | 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported'
  | 'FieldValueDuplicate' | 'FieldValueTooLong' | 'FieldValueForbidden';

/** Go prints simple values with %v, strings with %q and anything else as JSON. */
export function formatBadValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

function cause(type: CauseType, field: string, body: string, detail: string): StatusCause {
  return { type, message: detail ? `${body}: ${detail}` : body, field };
}

export function required(field: string, detail = ''): StatusCause {
  return cause('FieldValueRequired', field, 'Required value', detail);
}

export function invalidValue(field: string, value: unknown, detail: string): StatusCause {
  return cause('FieldValueInvalid', field, `Invalid value: ${formatBadValue(value)}`, detail);
}

/** Supported values are listed in the order given (kube sorts when it uses a set; pass them sorted then). */
export function notSupported(field: string, value: unknown, supported: readonly string[]): StatusCause {
  const detail = supported.length > 0 ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
  return cause('FieldValueNotSupported', field, `Unsupported value: ${formatBadValue(value)}`, detail);
}

export function duplicate(field: string, value: unknown): StatusCause {
  return cause('FieldValueDuplicate', field, `Duplicate value: ${formatBadValue(value)}`, '');
}

/** The value is never echoed for TooLong (it may be huge). Worded as real 1.20's field.TooLong (newer kube: "may not be more than"). */
export function tooLong(field: string, maxBytes: number): StatusCause {
  return cause('FieldValueTooLong', field, 'Too long', `must have at most ${maxBytes} bytes`);
}

export function forbidden(field: string, detail: string): StatusCause {
  return cause('FieldValueForbidden', field, 'Forbidden', detail);
}

export const FIELD_IMMUTABLE = 'field is immutable';

/** Path helpers matching field.Path.String(): `a.b[0]`, `data[some key]`. */
export function child(base: string, ...names: string[]): string {
  return [base, ...names].filter((s) => s !== '').join('.');
}

export function index(base: string, i: number): string {
  return `${base}[${i}]`;
}

export function key(base: string, k: string): string {
  return `${base}[${k}]`;
}
