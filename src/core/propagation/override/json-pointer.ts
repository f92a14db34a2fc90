// RFC 6901 JSON pointers, with go-openapi/jsonpointer's error wording (Karmada
// parses fieldPath and predicate.path with it).
export const INVALID_POINTER_START = 'JSON pointer must be empty or start with a "/';

/** The unescaped tokens of a pointer, or an error message. */
export function parsePointer(pointer: string): string[] | string {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return INVALID_POINTER_START;
  return pointer.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The value at `tokens`, or undefined when any step is missing. Array steps must be decimal indexes. */
export function getAt(doc: unknown, tokens: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t)) return undefined;
      cur = cur[Number(t)];
    } else if (cur !== null && typeof cur === 'object') {
      cur = Object.prototype.hasOwnProperty.call(cur, t) ? (cur as Record<string, unknown>)[t] : undefined;
    } else {
      return undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}
