// Field selectors (`?fieldSelector=`, k8s.io/apimachinery/pkg/fields): comma-separated
// `field=value`, `field==value`, `field!=value` terms. Values escape `\`, `,` and `=`
// with a backslash; field names are never escaped, so the first operator splits a term.
import { badRequest } from '../api-error.ts';
import { isObject } from '../types.ts';

export type FieldOperator = '=' | '==' | '!=';

export interface FieldRequirement {
  field: string;
  operator: FieldOperator;
  /** Unescaped value. */
  value: string;
}

/** Splits on commas that are not escaped; the backslash stays in the term for unescapeFieldValue. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') { terms.push(text.slice(start, i)); start = i + 1; }
  }
  terms.push(text.slice(start));
  return terms;
}

// '!=' and '==' are tried before '=' at each position so "a==b" does not leave "=b" as the value.
const TERM_OPERATORS: FieldOperator[] = ['!=', '==', '='];

function splitTerm(term: string): [string, FieldOperator, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Throws BadRequest with kube's messages on a bad escape or a bare `,`/`=`. */
export function unescapeFieldValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // kube prints the rune with %v, i.e. its code point number.
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Parses `?fieldSelector=`; '' selects everything. Terms come back in kube's order (sorted as raw text). */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const parts = splitTerms(text).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, operator, raw] = split;
    reqs.push({ field, operator, value: unescapeFieldValue(raw) });
  }
  return reqs;
}

export function formatFieldSelector(reqs: readonly FieldRequirement[]): string {
  return reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/** A missing field reads as '' (kube's Fields.Get), so `spec.nodeName=` selects unscheduled pods. */
export function matchesFields(reqs: readonly FieldRequirement[], getField: (field: string) => string | undefined): boolean {
  return reqs.every((r) => {
    const actual = getField(r.field) ?? '';
    return r.operator === '!=' ? actual !== r.value : actual === r.value;
  });
}

/**
 * Reads a ".spec.nodeName" or "spec.nodeName" path as kube's field sets do: strings as is, booleans as
 * "true"/"false", numbers in decimal; undefined for anything absent or not a scalar.
 */
export function fieldValue(obj: unknown, path: string): string | undefined {
  const segments = (path.startsWith('.') ? path.slice(1) : path).split('.');
  let cur: unknown = obj;
  for (const seg of segments) {
    if (!isObject(cur)) return undefined;
    cur = cur[seg];
  }
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'boolean') return cur ? 'true' : 'false';
  if (typeof cur === 'number' && Number.isFinite(cur)) return String(cur);
  return undefined;
}
