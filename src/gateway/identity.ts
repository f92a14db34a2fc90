// Who a gateway request comes from, once authenticated. Set by the
// authentication filter, read by every later filter through tenantOf(req).
import type { IncomingMessage } from 'node:http';

export interface Identity {
  /** The tenant id (6 chars, [a-z][a-z0-9]{5}). */
  tenantId: string;
  /** The user name in the tenant's own terms (never prefixed). */
  user: string;
  /** Groups in the tenant's own terms; system:authenticated is added by authorization. */
  groups: string[];
  via: 'certificate' | 'token';
  /**
   * The Tenant object (metadata.uid) the credential was issued for; absent in
   * credentials from before ADR 0025 and from external OIDC issuers.
   */
  tenantUid?: string;
  /** When the credential was issued (certificate notBefore, JWT iat): checked against the tenant's revocation point. */
  issuedAt: Date;
  /**
   * Set for a ServiceAccount token Warren issued (TokenRequest, ADR 0028): the
   * ServiceAccount it names, in tenant terms, with the uid it was issued for.
   * Authentication checks that this ServiceAccount still exists with that uid.
   */
  serviceAccount?: { namespace: string; name: string; uid: string };
  /** Set by impersonation: the UID asked for with Impersonate-Uid. */
  uid?: string;
  /** Set by impersonation: Impersonate-Extra-* values, by lower-cased key. */
  extra?: Record<string, string[]>;
  /**
   * Set when the request runs as an impersonated identity: who authenticated and asked
   * for it (same tenant, always). Every decision uses the impersonated identity; the
   * audit log names both, as kube's does (user and impersonatedUser).
   */
  impersonatedBy?: { user: string; groups: string[] };
}

const identities = new WeakMap<IncomingMessage, Identity>();

export function setIdentity(req: IncomingMessage, identity: Identity): void {
  identities.set(req, identity);
}

/** The authenticated identity of a request; throws if authentication has not run (a chain-order bug). */
export function tenantOf(req: IncomingMessage): Identity {
  const identity = identities.get(req);
  if (!identity) throw new Error('tenantOf() called before authentication');
  return identity;
}

export function maybeTenantOf(req: IncomingMessage): Identity | undefined {
  return identities.get(req);
}
