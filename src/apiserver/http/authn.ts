// Authentication for the embedded apiserver: a client certificate signed by its
// CA (checked in the TLS handshake; user from CN, groups from O, as kube's x509
// authenticator), or a bearer token: the static admin token from the data
// directory (system:masters, like the real control plane's admin token), or a
// ServiceAccount token it issued (kube's ServiceAccount user and groups).
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { timingSafeEqual } from 'node:crypto';
import type { TokenIssuer } from '../auth/token-issuer.ts';
import type { UserInfo } from '../../core/rbac/index.ts';

export type Authenticator = (req: IncomingMessage) => Promise<UserInfo | undefined>;

export const MASTERS_GROUP = 'system:masters';
const ADMIN: UserInfo = { name: 'warren-admin', groups: [MASTERS_GROUP] };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' && v ? [v] : []);

/** system:serviceaccount:<ns>:<name> → its groups, as kube's ServiceAccount authenticator adds them. */
function serviceAccountUser(name: string): UserInfo {
  const ns = /^system:serviceaccount:([^:]+):[^:]+$/.exec(name)?.[1];
  return { name, groups: ns ? ['system:serviceaccounts', `system:serviceaccounts:${ns}`] : [] };
}

export function createAuthenticator(adminToken: string, tokens: TokenIssuer): Authenticator {
  // A verified client certificate is fixed for the life of the TLS connection: read it once per
  // connection, not once per request (getPeerCertificate costs tens of microseconds).
  const byConnection = new WeakMap<TLSSocket, UserInfo | null>();
  const certificateUser = (socket: TLSSocket): UserInfo | null => {
    let user = byConnection.get(socket);
    if (user === undefined) {
      const subject = socket.authorized ? socket.getPeerCertificate()?.subject : undefined;
      const cn = subject?.CN;
      user = typeof cn === 'string' && cn ? { name: cn, groups: asList(subject?.O) } : null;
      byConnection.set(socket, user);
    }
    return user;
  };
  return async (req) => {
    const fromCertificate = certificateUser(req.socket as TLSSocket);
    if (fromCertificate) return fromCertificate;
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return undefined;
    if (sameSecret(match[1], adminToken)) return ADMIN;
    const name = await tokens.verify(match[1]);
    return name ? serviceAccountUser(name) : undefined;
  };
}
