// A linear pass over a JSON body's bytes before JSON.parse, to refuse what
// would cost the gateway far more than its size suggests (break 5, ADR 0026):
// - nesting deeper than MAX_JSON_DEPTH. kube-apiserver refuses beyond 10,000
//   levels with a 400; Node's JSON.stringify overflows its stack near 2,000
//   (measured on Node 20), so a 100,000-deep body was a 500 here. 500 levels
//   leave room for the gateway's own recursive walks (patches, translation).
// - an object with more than MAX_OBJECT_MEMBERS members. V8 keeps such an
//   object as a hash table: parsing, copying and serialising one costs 5-10x
//   more per member than small objects do, and the gateway, its informers and
//   its cache each do so. A 200,000-label ConfigMap held the event loop for
//   seconds. kube has no such limit; Warren's is far above what any real
//   object (labels, a ConfigMap's keys, a CRD's properties) carries.
// - more than MAX_BODY_MEMBERS object members in the whole body. The bound
//   per object does not bound the body: 3 MB of one-member objects, each with
//   a key of its own (277,000 of them), passed it and took 1.5-5.5 s to parse
//   here, since V8 builds a hidden class per new key sequence (measured: ~3-15
//   us per such member against ~0.1 us for repeated shapes; ADR 0026).
// Strings are skipped with Buffer.indexOf, so the pass costs little beside the parse.

export const MAX_JSON_DEPTH = 500;
export const MAX_OBJECT_MEMBERS = 10_000;
export const MAX_BODY_MEMBERS = 100_000;

export type JsonScanRefusal =
  | { kind: 'depth'; limit: number; char: string }
  | { kind: 'members'; limit: number }
  | { kind: 'total'; limit: number };

/** JSON's structural characters (also json-slices.ts's). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** Why this JSON text is refused before parsing, or undefined. Malformed JSON is left to JSON.parse. */
export function scanJson(body: Uint8Array, limits: { depth?: number; members?: number; total?: number } = {}): JsonScanRefusal | undefined {
  const maxDepth = limits.depth ?? MAX_JSON_DEPTH;
  const maxMembers = limits.members ?? MAX_OBJECT_MEMBERS;
  const maxTotal = limits.total ?? MAX_BODY_MEMBERS;
  // Every object member has exactly one colon outside strings (after its key), and nothing else has one.
  let total = 0;
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Per open container: is it an object, and how many commas at its own level.
  const isObject: boolean[] = [];
  const commas: number[] = [];
  let depth = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      i = closingQuote(buf, i);
      if (i < 0) return undefined; // unterminated: JSON.parse says so in its words
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= maxDepth) return { kind: 'depth', limit: maxDepth, char: c === OPEN_OBJECT ? '{' : '[' };
      isObject[depth] = c === OPEN_OBJECT;
      commas[depth] = 0;
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0 && isObject[depth - 1]) {
      const n = (commas[depth - 1] ?? 0) + 1;
      commas[depth - 1] = n;
      if (n >= maxMembers) return { kind: 'members', limit: maxMembers };
    } else if (c === COLON && ++total > maxTotal) {
      return { kind: 'total', limit: maxTotal };
    }
  }
  return undefined;
}

/** Index of the quote closing the string opened at `open`, or -1. */
function closingQuote(buf: Buffer, open: number): number {
  let at = buf.indexOf(QUOTE, open + 1);
  while (at > 0) {
    let backslashes = 0;
    for (let k = at - 1; k > open && buf[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return at;
    at = buf.indexOf(QUOTE, at + 1);
  }
  return -1;
}
