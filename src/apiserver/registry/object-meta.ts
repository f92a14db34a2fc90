// Server-owned metadata: what kube-apiserver sets or keeps on every write.
import { randomBytes, randomUUID } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';

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

/** Fields the client may not set on create: cleared or replaced by the server. */
export function prepareCreateMeta(def: ResourceDef, meta: ObjectMeta, namespace: string, now: Date): ObjectMeta {
  const out: ObjectMeta = { ...meta };
  if (!out.name && out.generateName) out.name = `${out.generateName}${generateNameSuffix()}`;
  if (def.namespaced) out.namespace = namespace;
  else delete out.namespace;
  out.uid = randomUUID();
  out.creationTimestamp = timestamp(now);
  delete out.resourceVersion;
  delete out.deletionTimestamp;
  delete out.deletionGracePeriodSeconds;
  if (def.generation) out.generation = 1;
  else delete out.generation;
  delete out.selfLink;
  return out;
}

/** Keeps what the client cannot change on update: uid, creation time, namespace, deletion state. */
export function prepareUpdateMeta(meta: ObjectMeta, old: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = { ...meta };
  out.uid = old.uid;
  out.creationTimestamp = old.creationTimestamp;
  if (old.namespace !== undefined) out.namespace = old.namespace;
  if (old.deletionTimestamp) out.deletionTimestamp = old.deletionTimestamp;
  else delete out.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  else delete out.deletionGracePeriodSeconds;
  if (old.generation !== undefined) out.generation = old.generation;
  else delete out.generation;
  delete out.selfLink;
  return out;
}

/** What counts as a spec change for generation: everything but metadata and status. */
export function specChanged(next: KubeObject, old: KubeObject): boolean {
  const strip = (obj: KubeObject): string => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
    return stableStringify(rest);
  };
  return strip(next) !== strip(old);
}

export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
