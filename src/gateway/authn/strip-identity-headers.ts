// First filter of the chain, before authentication: a client must never be able
// to speak for someone else. `Impersonate-*` (User, Group, Uid, Extra-*) would be
// honoured by the upstream, which trusts Warren's own credential, and
// `X-Remote-*` is the request-header authenticator's channel (User, Group,
// Extra-*). Warren sets its own attribution headers later, after authorization.
// The Impersonate-* lines are kept aside (never on the request again), so the
// impersonation filter can judge them once the caller is authenticated.
import type { IncomingMessage } from 'node:http';

const FORBIDDEN_PREFIXES = ['impersonate-', 'x-remote-'];

const impersonation = new WeakMap<IncomingMessage, Array<[string, string]>>();

/** The Impersonate-* header lines the client sent, [name, value] in arrival order (empty if none). */
export function impersonationHeadersOf(req: IncomingMessage): ReadonlyArray<readonly [string, string]> {
  return impersonation.get(req) ?? [];
}

export function isIdentityHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_PREFIXES.some((p) => lower.startsWith(p));
}

/**
 * Removes every client-sent identity header, in place, and returns the names
 * removed (for the security log). Node builds `headers` and `headersDistinct`
 * lazily from `rawHeaders`, so all three are cleaned: whichever a later filter
 * or the proxy reads, the forged value is gone.
 * Trap: the lazy getters walk `rawHeaders` up to the count recorded at parse
 * time, so they must be built before `rawHeaders` shrinks, or they read past
 * its end.
 */
export function stripIdentityHeaders(req: IncomingMessage): string[] {
  const bags = [req.headers, req.headersDistinct];
  for (const bag of bags) {
    for (const name of Object.keys(bag)) {
      if (isIdentityHeader(name)) delete bag[name];
    }
  }
  const removed: string[] = [];
  const asked: Array<[string, string]> = [];
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i];
    if (name !== undefined && isIdentityHeader(name)) {
      removed.push(name.toLowerCase());
      if (name.toLowerCase().startsWith('impersonate-')) asked.push([name, raw[i + 1] ?? '']);
      raw.splice(i, 2);
    }
  }
  if (asked.length > 0) impersonation.set(req, [...(impersonation.get(req) ?? []), ...asked.reverse()]);
  return [...new Set(removed)].reverse();
}
