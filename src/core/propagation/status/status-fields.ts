// Small readers over untyped status JSON, with Go's zero values: a missing
// integer is 0, as it is once Karmada decodes into the typed struct.
export type Json = Record<string, unknown>;

export function rec(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Json : {};
}

export function int(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
}

export function statusOf(obj: unknown): Json | undefined {
  const s = (obj as { status?: unknown } | null)?.status;
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? s as Json : undefined;
}

/** Copies the named integer fields; `always` ones are written even when 0 (no omitempty in kube's types). */
export function pickInts(from: Json, omitEmpty: readonly string[], always: readonly string[] = []): Json {
  const out: Json = {};
  for (const k of always) out[k] = int(from[k]);
  for (const k of omitEmpty) if (int(from[k]) !== 0) out[k] = int(from[k]);
  return out;
}

/** Copies fields present in `from` (any type). */
export function pick(from: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (from[k] !== undefined && from[k] !== null) out[k] = from[k];
  return out;
}

export function conditionTrue(status: Json, type: string): boolean {
  const conditions = Array.isArray(status.conditions) ? status.conditions as Json[] : [];
  return conditions.some((c) => rec(c).type === type && rec(c).status === 'True');
}
