// Names the way kube-controller-manager builds them: an FNV-32a hash of the pod
// template (plus the collision count) rendered through the "safe" alphabet that
// has no vowels, so generated names never spell words. Kubernetes hashes a Go
// printout of the struct; we hash canonical JSON, so values differ from a real
// cluster's but have the same shape, and stay stable across restarts.

/** k8s.io/apimachinery/pkg/util/rand alphanums: no vowels, no 0/1/3 lookalikes. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function fnv32a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Maps each character onto the safe alphabet, as rand.SafeEncodeString does. */
export function safeEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += SAFE_ALPHABET[text.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

/** JSON with object keys sorted, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** controller.ComputeHash: pod-template-hash and controller-revision hashes. */
export function computeHash(template: unknown, collisionCount?: number): string {
  const body = new TextEncoder().encode(canonicalJson(template));
  let bytes = body;
  if (collisionCount !== undefined && collisionCount > 0) {
    // Kubernetes appends the count as 4 little-endian bytes.
    bytes = new Uint8Array(body.length + 4);
    bytes.set(body);
    new DataView(bytes.buffer).setUint32(body.length, collisionCount >>> 0, true);
  }
  return safeEncode(String(fnv32a(bytes)));
}

/** The 5-character suffix generateName adds (`<rs>-x7k2p`). */
export function randomSuffix(length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[Math.floor(Math.random() * SAFE_ALPHABET.length)];
  return out;
}
