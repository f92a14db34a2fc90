// Server-owned metadata: what kube-apiserver sets or keeps on every write.
import { randomBytes, randomUUID } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { jsonEqual } from '../../core/json-equal.ts';

/** RFC 3339 at second precision, as Kubernetes serialises metav1.Time. */
export function timestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The 5-character suffix kube-apiserver appends to generateName (from the same consonant-digit alphabet). */
export function generateNameSuffix(): string {
  const bytes = randomBytes(5);
  let out = '';
  for (const byte of bytes) out += NAME_SUFFIX_ALPHABET[byte % NAME_SUFFIX_ALPHABET.length];
  return out;
}

/** kube's SimpleNameGenerator: the base is cut so that base and suffix stay within 63 characters. */
const MAX_GENERATED_BASE = 63 - 5;

/** The name kube-apiserver makes from a generateName (a 300-character one on a core Event gives 63 characters, real 1.20). */
export function generatedName(generateName: unknown): string {
  // Any value a body carries (validation refuses a non-string afterwards, naming this name).
  return `${String(generateName).slice(0, MAX_GENERATED_BASE)}${generateNameSuffix()}`;
}

/** Fields the client may not set on create: cleared or replaced by the server. */
export function prepareCreateMeta(def: ResourceDef, meta: ObjectMeta, namespace: string, now: Date): ObjectMeta {
  const out = copyWithout(meta, (key) => ALWAYS_DROPPED_ON_CREATE.has(key)
    || (key === 'namespace' && !def.namespaced) || (key === 'generation' && !def.generation));
  if (!out.name && out.generateName) out.name = generatedName(out.generateName);
  if (def.namespaced) out.namespace = namespace;
  out.uid = randomUUID();
  out.creationTimestamp = timestamp(now);
  if (def.generation) out.generation = 1;
  return out;
}

const ALWAYS_DROPPED_ON_CREATE: ReadonlySet<string> = new Set(['resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink']);

/** Keeps what the client cannot change on update: uid, creation time, namespace, deletion state. */
export function prepareUpdateMeta(meta: ObjectMeta, old: ObjectMeta): ObjectMeta {
  const out = copyWithout(meta, (key) => key === 'selfLink'
    || (key === 'deletionTimestamp' && !old.deletionTimestamp)
    || (key === 'deletionGracePeriodSeconds' && old.deletionGracePeriodSeconds === undefined)
    || (key === 'generation' && old.generation === undefined));
  out.uid = old.uid;
  out.creationTimestamp = old.creationTimestamp;
  if (old.namespace !== undefined) out.namespace = old.namespace;
  if (old.deletionTimestamp) out.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  if (old.generation !== undefined) out.generation = old.generation;
  return out;
}

/**
 * A copy without the dropped keys, in the original key order (the order shows in responses). Built key
 * by key rather than spread-then-delete: delete turns the copy into a slow dictionary object, and
 * metadata is read and serialised several times per write.
 */
function copyWithout(meta: ObjectMeta, dropped: (key: string) => boolean): ObjectMeta {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(meta)) {
    if (!dropped(key)) out[key] = (meta as Record<string, unknown>)[key];
  }
  return out as ObjectMeta;
}

/** What counts as a spec change for generation: everything but metadata and status. */
export function specChanged(next: KubeObject, old: KubeObject): boolean {
  return !jsonEqual(next, old, TOP_LEVEL_NOT_SPEC);
}

const TOP_LEVEL_NOT_SPEC = new Set(['metadata', 'status', 'apiVersion', 'kind']);

export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
