// Revocation by instant: `warren tenant revoke` moves the tenant's
// credentialsNotBefore, and every credential issued before it stops working.
//
// Trap: credentials carry whole seconds (X.509 notBefore, JWT iat), the
// revocation point carries milliseconds. Compared naively, a credential issued
// 300 ms after a revocation (its second floored to before it) would be refused
// forever. So both sides are compared in whole seconds: a credential issued in
// the very second of the revocation still counts. Whoever revokes should round
// the instant up to the next whole second and issue fresh credentials from then
// on; then nothing issued before the revocation survives it.

export function isRevoked(issuedAt: Date, credentialsNotBefore: Date | undefined): boolean {
  if (credentialsNotBefore === undefined) return false;
  return Math.floor(issuedAt.getTime() / 1000) < Math.floor(credentialsNotBefore.getTime() / 1000);
}

/**
 * Why a credential is not the given Tenant's, or undefined when it is (ADR 0025).
 * A credential naming a Tenant uid must name this one. One naming none (issued
 * before the binding, or by an external OIDC issuer) must have been issued at or
 * after the Tenant's creation, in whole seconds as above: before it, the id
 * belonged to another Tenant (or to none).
 */
export function bindingRefusal(credential: { tenantUid?: string; issuedAt: Date }, tenant: { uid?: string; createdAt?: Date }): string | undefined {
  if (credential.tenantUid !== undefined && tenant.uid !== undefined && credential.tenantUid !== tenant.uid) {
    return `credential was issued for tenant object ${credential.tenantUid}, not ${tenant.uid}`;
  }
  if (credential.tenantUid === undefined && tenant.createdAt !== undefined && isRevoked(credential.issuedAt, tenant.createdAt)) {
    return `credential issued ${credential.issuedAt.toISOString()} predates the tenant object (created ${tenant.createdAt.toISOString()})`;
  }
  return undefined;
}
