// Platform admins (SaaS portals, operators) reach the provisioning API on the
// gateway with either a client certificate from Warren's tenant CA carrying
// O=warren:platform-admins (and no tenant OU), or a Warren-signed JWT carrying
// "warren.dev/platform-admin": true. Tenant credentials never qualify.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { SignJWT, createLocalJWKSet, importJWK, jwtVerify } from 'jose';
import { ApiError } from '../../core/api-error.ts';
import { DEFAULT_AUDIENCE, DEFAULT_ISSUER, WARREN_TOKEN_ALGORITHM, publicJwks, type SigningKeySet } from '../../tenants/credentials/signing-keys.ts';

export const PLATFORM_ADMINS_GROUP = 'warren:platform-admins';
export const PLATFORM_ADMIN_CLAIM = 'warren.dev/platform-admin';

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [] : [String(value)];
}

/** A platform admin's name, and when the credential presented stops being valid (ms since the epoch). */
export interface PlatformAdminSession {
  name: string;
  /** The token's exp or the certificate's notAfter: a console live stream ends then (src/console). */
  expiresAt?: number;
}

export async function platformAdminSession(req: IncomingMessage, keys: SigningKeySet, issuer = DEFAULT_ISSUER): Promise<PlatformAdminSession> {
  const socket = req.socket as TLSSocket;
  if (socket.authorized) {
    const cert = socket.getPeerCertificate();
    const subject = cert?.subject as unknown as Record<string, unknown> | undefined;
    if (subject && asList(subject.O).includes(PLATFORM_ADMINS_GROUP) && asList(subject.OU).length === 0) {
      const notAfter = Date.parse(cert.valid_to);
      return { name: asList(subject.CN)[0] ?? 'platform-admin', ...(Number.isFinite(notAfter) ? { expiresAt: notAfter } : {}) };
    }
  }
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (match?.[1]) {
    try {
      const { payload } = await jwtVerify(match[1], createLocalJWKSet(publicJwks(keys)), { issuer, audience: DEFAULT_AUDIENCE, algorithms: [WARREN_TOKEN_ALGORITHM] });
      if (payload[PLATFORM_ADMIN_CLAIM] === true && typeof payload.sub === 'string') {
        return { name: payload.sub, ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp * 1000 } : {}) };
      }
    } catch {
      // falls through to 401
    }
  }
  throw new ApiError('Unauthorized', 'Unauthorized');
}

export async function platformAdminOf(req: IncomingMessage, keys: SigningKeySet, issuer = DEFAULT_ISSUER): Promise<string> {
  return (await platformAdminSession(req, keys, issuer)).name;
}

export async function mintPlatformAdminToken(keys: SigningKeySet, subject: string, ttlSeconds: number, issuer = DEFAULT_ISSUER): Promise<string> {
  const key = await importJWK(keys.current.privateJwk, WARREN_TOKEN_ALGORITHM);
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ [PLATFORM_ADMIN_CLAIM]: true })
    .setProtectedHeader({ alg: WARREN_TOKEN_ALGORITHM, kid: keys.current.kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(subject)
    .setAudience(DEFAULT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}
