// Equality of JSON values as the API stores them: key order ignored, members
// whose value is undefined absent (as JSON.stringify drops them), and an
// undefined array element read as null. Compared in place, stopping at the
// first difference; `skip` leaves keys of the top level out.
import { isObject } from './types.ts';

export function jsonEqual(a: unknown, b: unknown, skip?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  if (!isObject(a) || !isObject(b)) return false;
  let count = 0;
  for (const k of Object.keys(a)) {
    if (a[k] === undefined || skip?.has(k)) continue;
    count++;
    if (!jsonEqual(a[k], b[k])) return false;
  }
  for (const k of Object.keys(b)) if (b[k] !== undefined && !skip?.has(k)) count--;
  return count === 0;
}
