// The `kubectl.kubernetes.io/last-applied-configuration` annotation exactly as
// kubectl apply writes it, so an object Warren applies from a manifest (warren
// up, warren apply) is one a later `kubectl apply -f` of the same file finds
// unchanged: no "missing last-applied-configuration" warning, no write.
// kubectl (util.GetModifiedConfiguration) encodes the object as Go's
// encoding/json does: map keys sorted, compact, `<`, `>`, `&`, U+2028 and
// U+2029 escaped, a newline at the end; the annotation itself is left out and
// an object with no annotations gets an empty `annotations: {}`. Pure.
import type { KubeObject } from '../types.ts';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function goString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c);
}

/** Go's json.Marshal of a decoded JSON value: object keys in byte order, no spaces. */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${goString(k)}:${goJson(v)}`).join(',')}}`;
}

/** What kubectl apply would store in the annotation for this manifest. */
export function lastAppliedConfiguration(manifest: KubeObject): string {
  const annotations = { ...(manifest.metadata?.annotations ?? {}) };
  delete annotations[LAST_APPLIED_ANNOTATION];
  return `${goJson({ ...manifest, metadata: { ...manifest.metadata, annotations } })}\n`;
}

/** The manifest with that annotation, as kubectl apply sends it. */
export function withLastApplied(manifest: KubeObject): KubeObject {
  const annotations = { ...(manifest.metadata?.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: lastAppliedConfiguration(manifest) };
  return { ...manifest, metadata: { ...manifest.metadata, annotations } };
}
