// First filter of the chain, before authentication: a client must never be able
// to speak for someone else. `Impersonate-*` (User, Group, Uid, Extra-*) would be
// honoured by the upstream, which trusts Warren's own credential, and
// `X-Remote-*` is the request-header authenticator's channel (User, Group,
// Extra-*). Warren sets its own attribution headers later, after authorization.
import type { IncomingMessage } from 'node:http';

const FORBIDDEN_PREFIXES = ['impersonate-', 'x-remote-'];

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
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i];
    if (name !== undefined && isIdentityHeader(name)) {
      removed.push(name.toLowerCase());
      raw.splice(i, 2);
    }
  }
  return [...new Set(removed)].reverse();
}
