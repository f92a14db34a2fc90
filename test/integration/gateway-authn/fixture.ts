// The world of the gateway-authn tests: Warren's tenant CA and signing keys,
// a few tenants in different states, and the throwaway server in front.
import { createCa } from '../../../src/pki/certificates.ts';
import type { IssuedCertificate } from '../../../src/pki/certificates.ts';
import { createTokenAuthenticator } from '../../../src/gateway/authn/bearer-token.ts';
import type { OidcIssuerConfig } from '../../../src/gateway/authn/bearer-token.ts';
import { issueTenantUserCertificate } from '../../../src/tenants/credentials/issue-certificate.ts';
import type { TenantUserCertificate } from '../../../src/tenants/credentials/issue-certificate.ts';
import { createSigningKeySet, mintTenantToken } from '../../../src/tenants/credentials/signing-keys.ts';
import type { SigningKeySet } from '../../../src/tenants/credentials/signing-keys.ts';
import { staticTenantDirectory } from '../../../src/tenants/tenant-directory.ts';
import { startAuthnServer } from './authn-server.ts';
import type { AuthnServer } from './authn-server.ts';

export const REVOKED_AT = new Date(Date.now() - 5 * 60_000);
export const BEFORE_REVOCATION = new Date(REVOKED_AT.getTime() - 5 * 60_000);

export const TENANTS = [
  { id: 'acme01', name: 'acme', phase: 'Ready' as const, suspended: false },
  { id: 'revk01', name: 'revoked-co', phase: 'Ready' as const, suspended: false, credentialsNotBefore: REVOKED_AT },
  { id: 'gone01', name: 'leaving-co', phase: 'Terminating' as const, suspended: false },
  { id: 'susp01', name: 'sleepy-co', phase: 'Suspended' as const, suspended: true },
];

export interface Fixture {
  tenantCa: IssuedCertificate;
  keys: SigningKeySet;
  server: AuthnServer;
  cert(tenantId: string, user: string, groups?: string[], extra?: { notBefore?: Date; lifetimeMs?: number }): Promise<TenantUserCertificate>;
  token(tenantId: string, user: string, extra?: { now?: Date; ttlSeconds?: number; groups?: string[] }): Promise<string>;
}

export async function startFixture(oidcIssuers: OidcIssuerConfig[] = []): Promise<Fixture> {
  const tenantCa = await createCa('warren-tenant-ca');
  const keys = await createSigningKeySet();
  const tokens = createTokenAuthenticator({ warrenKeys: keys, oidcIssuers });
  const server = await startAuthnServer({ tenantCaPem: tenantCa.certPem, tenants: staticTenantDirectory(TENANTS), tokens, keys });
  return {
    tenantCa,
    keys,
    server,
    cert: (tenantId, user, groups = [], extra = {}) =>
      issueTenantUserCertificate({ ca: tenantCa, tenantId, user, groups, lifetimeMs: extra.lifetimeMs ?? 3600_000, ...(extra.notBefore ? { notBefore: extra.notBefore } : {}) }),
    token: (tenantId, user, extra = {}) =>
      mintTenantToken({ keys, tenantId, user, groups: extra.groups ?? ['devs'], ttlSeconds: extra.ttlSeconds ?? 3600, ...(extra.now ? { now: extra.now } : {}) }),
  };
}
