// Typed reads of a loosely typed swagger document. A value of the wrong JSON
// type reads as absent, which is what proto3 writes for it: nothing. (gnostic
// would refuse the whole document instead; serving the rest is more useful.)

export type Json = Record<string, unknown>;

export function str(obj: Json, key: string): string | undefined {
  const v = obj[key];
  return typeof v === 'string' ? v : undefined;
}

export function bool(obj: Json, key: string): boolean | undefined {
  const v = obj[key];
  return typeof v === 'boolean' ? v : undefined;
}

export function num(obj: Json, key: string): number | undefined {
  const v = obj[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** int64 fields: only integral JSON numbers. */
export function int(obj: Json, key: string): number | undefined {
  const v = num(obj, key);
  return v !== undefined && Number.isSafeInteger(v) ? v : undefined;
}

export function strings(obj: Json, key: string): string[] | undefined {
  const v = obj[key];
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined;
}

export function record(obj: Json, key: string): Json | undefined {
  return isRecord(obj[key]) ? (obj[key] as Json) : undefined;
}

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Map entries with names sorted by code unit, as Go's json.Marshal orders map keys. */
export function sortedEntries(obj: Json, keep: (name: string) => boolean = () => true): [string, unknown][] {
  return Object.keys(obj)
    .filter(keep)
    .sort()
    .map((k) => [k, obj[k]]);
}
