// One copy of each string the engine's views repeat (issue 18: memory per
// (member, object) pair). The 10 Works of a binding carry the same name, marks,
// manifest hash (Duplicated) and status words; every Work of a cluster the same
// namespace; every copy on members the same labels as its siblings. JSON.parse
// makes a new string for each (V8 shares only very short ones), so 100,000 Works
// held 100,000 copies of each. Interning only shares equal strings, so the table
// may be dropped at any time without changing a value: it is, past a bound, so
// strings of objects long gone do not pile up.
//
// Whole values too (`shared`): the 10 Works of a binding carry equal labels,
// annotations and, mostly, status; the 10 copies of a template equal labels,
// spec scalars and status. A heap snapshot after 1,000 x 10 (docs/benchmarks.md,
// session 12) showed these small objects, each with its own hidden class and
// property array, as the largest part of what the engine keeps per pair. One
// frozen copy per distinct JSON text serves them all; frozen, because a reader
// that changed a shared value would change every sibling's.
//
// Each table is bounded by its text too, not only by its entries: an entry
// outlives its objects until the table is dropped, and some values are a
// tenant's (a policy's placement is every binding's, a condition's message
// quotes its objects): 200,000 distinct values of a MB each, one per write, would
// have kept GBs of text no object held any more (v2's review). A value or string
// longer than a part of the bound is not kept at all (a frozen copy of its own):
// one tenant's large values cannot flush everyone's shared copies at each write.
const MAX_ENTRIES = 200_000;
const MAX_CHARS = 32 * 1024 * 1024;
/** A value this part of the bound or longer is not kept (frozen all the same). */
const LARGEST_KEPT = 1 / 128;

export interface Interner {
  /** The one copy of this string. */
  string(s: string): string;
  /** A JSON value with every string (keys are interned by V8 already) replaced by its one copy; a new value. */
  json<T>(value: T): T;
  /**
   * One frozen copy of a JSON value (from JSON.parse: no undefined, functions or cycles) for every
   * equal one, key order included: a value with the same text as one seen before is that one.
   */
  shared<T>(value: T): T;
  /** Entries held (tests). */
  size(): number;
  /** Characters of text held by both tables (tests). */
  chars(): number;
}

export function createInterner(maxEntries = MAX_ENTRIES, maxChars = MAX_CHARS): Interner {
  const strings = boundedTable<string>(maxEntries, maxChars);
  const string = (s: string): string => strings.get(s) ?? strings.keep(s, s);
  const json = <T>(value: T): T => {
    if (typeof value === 'string') return string(value) as T;
    if (Array.isArray(value)) return value.map(json) as T;
    // fromEntries defines own properties: a key "__proto__" (JSON.parse makes it an own one) stays a key.
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, json(v)])) as T;
    return value;
  };
  const values = boundedTable<unknown>(maxEntries, maxChars);
  const shared = <T>(value: T): T => {
    if (typeof value === 'string') return string(value) as T;
    if (value === null || typeof value !== 'object') return value;
    const text = JSON.stringify(value);
    // Too large to keep: a frozen copy of its own, parsed back from the text already made (a "__proto__"
    // key stays an own key), its strings not interned: one event's large value must not fill the string table.
    if (!values.keeps(text)) return deepFreeze(JSON.parse(text) as T);
    const known = values.get(text);
    if (known !== undefined) return known as T;
    return values.keep(text, deepFreeze(json(value))) as T;
  };
  return { string, json, shared, size: () => strings.size() + values.size(), chars: () => strings.chars() + values.chars() };
}

/** A map from text to its one copy, dropped whole past `maxEntries` entries or `maxChars` characters of keys. */
function boundedTable<V>(maxEntries: number, maxChars: number): { get(key: string): V | undefined; keeps(key: string): boolean; keep(key: string, value: V): V; size(): number; chars(): number } {
  let map = new Map<string, V>();
  let chars = 0;
  const keeps = (key: string): boolean => key.length < maxChars * LARGEST_KEPT;
  return {
    get: (key) => map.get(key),
    keeps,
    keep(key, value) {
      if (!keeps(key)) return value;
      if (map.size >= maxEntries || chars + key.length > maxChars) { map = new Map(); chars = 0; }
      map.set(key, value);
      chars += key.length;
      return value;
    },
    size: () => map.size,
    chars: () => chars,
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The engine's views share one table. */
export const viewStrings = createInterner();
