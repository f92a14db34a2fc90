// How a credential names the Tenant object it was issued for, not only its id:
// a Tenant deleted and created again with the same id is another tenant, and
// the old one's certificates and tokens must not work for it (break 8).
// The Tenant's metadata.uid goes into the certificate as a subjectAltName URI
// (as SPIFFE ids do) and into Warren's JWTs as a claim. See ADR 0025.

/** The URI scheme of the binding in a certificate's subjectAltName. */
const URI_PREFIX = 'urn:warren:tenant-uid:';

/** The JWT claim holding the Tenant's uid. */
export const TENANT_UID_CLAIM = 'warren.dev/tenant-uid';

// A Kubernetes uid is a UUID; anything else in a credential is refused rather than guessed at.
const UID = /^[A-Za-z0-9-]{1,64}$/;

export function isTenantUid(value: string): boolean {
  return UID.test(value);
}

export function tenantUidUri(uid: string): string {
  if (!isTenantUid(uid)) throw new TypeError(`invalid tenant uid ${JSON.stringify(uid)}`);
  return `${URI_PREFIX}${uid}`;
}

/**
 * The uids named by URI entries of a subjectAltName: Node's `subjectaltname`
 * text ("DNS:x, URI:urn:warren:tenant-uid:..."; values with special characters
 * come JSON-quoted) or a list of URIs. More than one is the caller's to refuse.
 */
export function tenantUidsOfSubjectAltName(san: string | undefined): string[] {
  if (!san) return [];
  const uids: string[] = [];
  for (const raw of san.split(', ')) {
    if (!raw.startsWith('URI:')) continue;
    let value = raw.slice(4);
    if (value.startsWith('"')) {
      try { value = JSON.parse(value) as string; } catch { continue; }
    }
    if (value.startsWith(URI_PREFIX)) uids.push(value.slice(URI_PREFIX.length));
  }
  return uids;
}
