// An object's metadata.labels read from its stored JSON text without parsing
// the rest (issue 13, ADR 0026). A watch with a label selector decides, for
// every event of its resource, whether the object and its previous state match;
// parsing both in full cost ~50 ms per event of a 1 MB ConfigMap, inside the
// write's commit, in front of every other client's request. The labels are a
// small part of such an object: this pass skips strings with indexOf and
// containers by counting brackets, stops at the end of `labels`, and parses
// only that member.
//
// The stored text is JSON.stringify's output (the store writes nothing else):
// no duplicate keys, so the first "metadata" and its first "labels" are the
// ones JSON.parse would keep. Anything unexpected answers undefined and the
// caller parses the whole text.
import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../../http/json-scan.ts';
import { endOfString, firstNonSpace } from '../../http/json-slices.ts';

/** Index just past the value starting at `at` (a string, a container, or a literal), or -1. */
function endOfValue(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) {
    const end = endOfString(text, at);
    return end === -1 ? -1 : end + 1;
  }
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    // A number, true, false or null: up to the next comma or closing bracket.
    let i = at;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY) return i;
    }
    return -1;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) {
      i = endOfString(text, i);
      if (i === -1) return -1;
    } else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * Where the value of member `name` of the object starting at `open` starts and ends; `null` when the
 * object has no such member; undefined when the text is not what was expected.
 */
function memberValue(text: string, open: number, name: string): { start: number; end: number } | null | undefined {
  if (text.charCodeAt(open) !== OPEN_OBJECT) return undefined;
  let i = firstNonSpace(text, open + 1, text.length);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return null;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = endOfString(text, i);
    if (keyEnd === -1) return undefined;
    const key = JSON.parse(text.slice(i, keyEnd + 1)) as string;
    i = firstNonSpace(text, keyEnd + 1, text.length);
    if (text.charCodeAt(i) !== COLON) return undefined;
    const start = firstNonSpace(text, i + 1, text.length);
    const end = endOfValue(text, start);
    if (end === -1) return undefined;
    if (key === name) return { start, end };
    i = firstNonSpace(text, end, text.length);
    const c = text.charCodeAt(i);
    if (c === CLOSE_OBJECT) return null;
    if (c !== COMMA) return undefined;
    i = firstNonSpace(text, i + 1, text.length);
  }
}

/**
 * The object's metadata.labels ({} when it has none), or undefined when the text is not a JSON
 * object of the expected shape (the caller then parses it whole).
 */
export function labelsInText(text: string): Record<string, string> | undefined {
  const metadata = memberValue(text, firstNonSpace(text, 0, text.length), 'metadata');
  if (metadata === undefined) return undefined;
  if (metadata === null) return {};
  const labels = memberValue(text, metadata.start, 'labels');
  if (labels === undefined) return undefined;
  if (labels === null) return {};
  const value = JSON.parse(text.slice(labels.start, labels.end)) as unknown;
  if (value === null) return {};
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : undefined;
}
