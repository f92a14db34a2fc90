// Authentication for the embedded apiserver: a client certificate signed by its
// CA (checked in the TLS handshake), or a bearer token: the static admin token
// from the data directory, or a ServiceAccount token it issued.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { timingSafeEqual } from 'node:crypto';
import type { TokenIssuer } from '../auth/token-issuer.ts';

export type Authenticator = (req: IncomingMessage) => Promise<string | undefined>;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createAuthenticator(adminToken: string, tokens: TokenIssuer): Authenticator {
  // A verified client certificate is fixed for the life of the TLS connection: read it once per
  // connection, not once per request (getPeerCertificate costs tens of microseconds).
  const byConnection = new WeakMap<TLSSocket, string | null>();
  const certificateUser = (socket: TLSSocket): string | null => {
    let user = byConnection.get(socket);
    if (user === undefined) {
      const cn = socket.authorized ? socket.getPeerCertificate()?.subject?.CN : undefined;
      user = typeof cn === 'string' && cn ? cn : null;
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
    if (sameSecret(match[1], adminToken)) return 'warren-admin';
    return tokens.verify(match[1]);
  };
}
