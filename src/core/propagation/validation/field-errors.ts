// field.Error causes with kube's wording, for the policy validators. A copy of
// the few helpers src/apiserver/validation/field-errors.ts has: core may not
// import the embedded apiserver. Non-string values print as JSON where Go would
// print its own %v form (a struct literal Warren cannot reproduce byte for byte).
import type { StatusCause } from '../../types.ts';

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined ? 'null' : JSON.stringify(value);
}

export function required(field: string): StatusCause {
  return { type: 'FieldValueRequired', field, message: 'Required value' };
}

export function invalid(field: string, value: unknown, detail: string): StatusCause {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${show(value)}: ${detail}` };
}

export function notSupported(field: string, value: unknown, supported: readonly string[]): StatusCause {
  return { type: 'FieldValueNotSupported', field, message: `Unsupported value: ${show(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` };
}

/** A CRD schema enum check (structural schema errors read like field.NotSupported). */
export function checkEnum(causes: StatusCause[], field: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || !allowed.includes(value)) causes.push(notSupported(field, value, allowed));
}

export type Json = Record<string, unknown>;
export const rec = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Json : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
