// One copy of each string the engine's views repeat (issue 18: memory per
// (member, object) pair). The 10 Works of a binding carry the same name, marks,
// manifest hash (Duplicated) and status words; every Work of a cluster the same
// namespace; every copy on members the same labels as its siblings. JSON.parse
// makes a new string for each (V8 shares only very short ones), so 100,000 Works
// held 100,000 copies of each. Interning only shares equal strings, so the table
// may be dropped at any time without changing a value: it is, past a bound, so
// strings of objects long gone do not pile up.
const MAX_ENTRIES = 200_000;

export interface Interner {
  /** The one copy of this string. */
  string(s: string): string;
  /** A JSON value with every string (keys are interned by V8 already) replaced by its one copy; a new value. */
  json<T>(value: T): T;
  /** Entries held (tests). */
  size(): number;
}

export function createInterner(maxEntries = MAX_ENTRIES): Interner {
  let table = new Map<string, string>();
  const string = (s: string): string => {
    const known = table.get(s);
    if (known !== undefined) return known;
    if (table.size >= maxEntries) table = new Map();
    table.set(s, s);
    return s;
  };
  const json = <T>(value: T): T => {
    if (typeof value === 'string') return string(value) as T;
    if (Array.isArray(value)) return value.map(json) as T;
    // fromEntries defines own properties: a key "__proto__" (JSON.parse makes it an own one) stays a key.
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, json(v)])) as T;
    return value;
  };
  return { string, json, size: () => table.size };
}

/** The engine's views share one table. */
export const viewStrings = createInterner();
