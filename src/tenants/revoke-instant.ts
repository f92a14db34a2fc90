// The `spec.credentials.revokeBefore` a revocation writes (the CLI's `warren tenant revoke`, the console).

/** Credentials carry whole seconds: revoking up to the next second leaves nothing issued before now. */
export function revokeInstant(now: number): string {
  return new Date(Math.ceil((now + 1) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
