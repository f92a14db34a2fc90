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
