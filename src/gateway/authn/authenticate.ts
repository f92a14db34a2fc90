// The authentication filter's decision: who is calling, and may their tenant act
// at all. Client certificate first (verified by TLS, cheapest), then bearer
// token, as kube's union authenticator does. Every refusal before the tenant is
// known to be the caller's own is the same bare 401, so a caller learns nothing
// about other tenants; only a caller with a valid, unrevoked credential of its
// own tenant learns that tenant's state (403 while it is being deleted).
// Suspension is not decided here: reads stay allowed, and writes are refused
// later in the chain, once the verb is known.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import type { Identity } from '../identity.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import type { TokenAuthenticator } from './bearer-token.ts';
import { identityFromClientCertificate } from './client-certificate.ts';
import { bindingRefusal, isRevoked } from './revocation.ts';
import { unauthorized } from './unauthorized.ts';
import type { ServiceAccountLookup } from './service-account-lookup.ts';

export interface AuthenticatorOptions {
  tenants: TenantDirectory;
  tokens: TokenAuthenticator;
  /**
   * ServiceAccount tokens (ADR 0028) are refused unless their ServiceAccount still
   * exists with the uid they were issued for; without a lookup they are refused.
   */
  serviceAccounts?: Pick<ServiceAccountLookup, 'cachedUidOf'>;
  /** The clock; tests move it. */
  now?: () => Date;
}

export type Authenticator = (req: IncomingMessage) => Promise<Identity>;

/** How long a valid credential of an unknown tenant waits for the directory to prove itself current. */
const UNKNOWN_TENANT_CATCH_UP_MS = 1_000;

/** As kube's bearer token authenticator: `Bearer <token>`, scheme case-insensitive; anything else is "no token". */
export function bearerTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  return parts[1] || undefined;
}

export function tenantBeingDeleted(): ApiError {
  return new ApiError('Forbidden', 'forbidden: the tenant is being deleted');
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const now = options.now ?? (() => new Date());
  // A connection's client certificate cannot change: parse it once per connection (it cost a
  // large share of a GET). Validity dates are still checked on every request below.
  const certificates = new WeakMap<object, { identity: Identity | undefined; notAfter: number }>();
  const fromCertificate = (req: IncomingMessage, at: Date): Identity | undefined => {
    const cached = certificates.get(req.socket);
    if (cached && at.getTime() < cached.notAfter) return cached.identity;
    const identity = identityFromClientCertificate(req.socket, at);
    const peer = identity ? (req.socket as unknown as { getPeerCertificate?: () => { valid_to?: string } }).getPeerCertificate?.() : undefined;
    const notAfter = peer?.valid_to ? Date.parse(peer.valid_to) : 0;
    if (identity && notAfter > 0) certificates.set(req.socket, { identity, notAfter });
    return identity;
  };
  return async (req) => {
    const at = now();
    let identity = fromCertificate(req, at);
    if (!identity) {
      const token = bearerTokenOf(req);
      if (token === undefined) throw unauthorized('no client certificate and no bearer token');
      identity = await options.tokens.authenticate(token, at);
    }
    let tenant = options.tenants.byId(identity.tenantId);
    // A valid credential of a tenant onboarded a moment ago: the directory may not hold it yet.
    if (!tenant && await options.tenants.catchUp?.(UNKNOWN_TENANT_CATCH_UP_MS)) tenant = options.tenants.byId(identity.tenantId);
    if (!tenant) throw unauthorized(`tenant ${identity.tenantId} is unknown`);
    if (isRevoked(identity.issuedAt, tenant.credentialsNotBefore)) {
      throw unauthorized(`credential issued ${identity.issuedAt.toISOString()} is revoked (tenant ${tenant.id} refuses credentials before ${tenant.credentialsNotBefore?.toISOString()})`);
    }
    // Bound to the Tenant object, not only its id: a Tenant made again with a deleted one's id
    // refuses the deleted one's credentials (break 8, ADR 0025).
    const notOurs = bindingRefusal(identity, tenant);
    if (notOurs) throw unauthorized(notOurs);
    const sa = identity.serviceAccount;
    if (sa) {
      const uid = await options.serviceAccounts?.cachedUidOf(tenant.id, sa.namespace, sa.name);
      if (uid !== sa.uid) throw unauthorized(`service account ${sa.namespace}/${sa.name} (uid ${sa.uid}) no longer exists`);
    }
    if (tenant.phase === 'Terminating') throw tenantBeingDeleted();
    return identity;
  };
}
