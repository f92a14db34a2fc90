// Karmada's generated names (pkg/util/names), as pure forward/inverse pairs.
//   binding:   <name>-<kind>, lowercased, ':' → '.' (RBAC names carry colons a CRD name may not)
//   work:      <name>-<safe-encoded fnv32a of "<ns>-<name>-<kind>">
//   execution namespace: karmada-es-<cluster>
export const EXECUTION_SPACE_PREFIX = 'karmada-es-';

/** names.GenerateBindingName: note the order, name first ("nginx-deployment"). */
export function bindingName(kind: string, name: string): string {
  return `${name.replaceAll(':', '.')}-${kind}`.toLowerCase();
}

/** ClusterResourceBinding names follow the same rule (GenerateBindingName is used for both today). */
export const clusterBindingName = bindingName;

/** names.GenerateWorkName(kind, name, namespace). */
export function workName(kind: string, name: string, namespace?: string): string {
  const lowered = name.replaceAll(':', '.').toLowerCase();
  const full = (namespace ? `${namespace}-${lowered}-${kind}` : `${lowered}-${kind}`).toLowerCase();
  return `${lowered}-${safeEncodeString(String(fnv32a(full)))}`;
}

export function executionNamespace(cluster: string): string {
  return EXECUTION_SPACE_PREFIX + cluster;
}

/** Inverse of executionNamespace; undefined for a namespace that is not an execution space. */
export function clusterOfExecutionNamespace(namespace: string): string | undefined {
  if (!namespace.startsWith(EXECUTION_SPACE_PREFIX)) return undefined;
  return namespace.slice(EXECUTION_SPACE_PREFIX.length);
}

// hashutil.DeepHashObject over a plain string hashes its bytes as they are: Karmada's
// own quick start shows Work "nginx-687f7fb96f" for Deployment default/nginx, which
// is fnv32a("default-nginx-deployment") safe-encoded (pinned in the tests).

/** FNV-1a, 32 bit, over the UTF-8 bytes. */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

// k8s.io/apimachinery/pkg/util/rand.SafeEncodeString: no vowels, no 0/1/3 (no bad words, no look-alikes).
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function safeEncodeString(text: string): string {
  let out = '';
  for (const ch of text) out += ALPHANUMS[(ch.codePointAt(0) ?? 0) % ALPHANUMS.length];
  return out;
}
