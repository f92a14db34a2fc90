// Signs ServiceAccount tokens (TokenRequest) with an ES256 key that lives in the
// data directory, publishes the public key at /openid/v1/jwks, and verifies the
// tokens it issued, so a pod's token authenticates as on a real cluster.
import type { ServerResponse } from 'node:http';
import { SignJWT, exportJWK, importJWK, jwtVerify, generateKeyPair, type JWK, type CryptoKey as JoseKey } from 'jose';

export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface IssueRequest {
  namespace: string;
  name: string;
  uid: string;
  audiences: string[] | undefined;
  expirationSeconds: number;
}

export interface IssuedToken {
  token: string;
  audiences: string[];
  expirationTimestamp: string;
}

export interface TokenIssuer {
  issueServiceAccountToken(request: IssueRequest): Promise<IssuedToken>;
  /** The user a token stands for, or undefined when it is not one of ours or has expired. */
  verify(token: string): Promise<string | undefined>;
  serveDiscovery(res: ServerResponse, path: string): void;
  privateJwk(): JWK;
}

export async function createTokenIssuer(existing?: JWK): Promise<TokenIssuer> {
  let privateJwk: JWK;
  if (existing) privateJwk = existing;
  else {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateJwk = { ...(await exportJWK(pair.privateKey)), alg: 'ES256' };
  }
  const { d: _d, ...publicJwk } = privateJwk;
  const kid = `${(publicJwk.x ?? '').slice(0, 16)}`;
  const privateKey = (await importJWK(privateJwk, 'ES256')) as JoseKey;
  const publicKey = (await importJWK(publicJwk, 'ES256')) as JoseKey;
  return {
    async issueServiceAccountToken(request) {
      const audiences = request.audiences ?? [SERVICE_ACCOUNT_ISSUER];
      const now = Math.floor(Date.now() / 1000);
      const exp = now + request.expirationSeconds;
      const token = await new SignJWT({
        'kubernetes.io': { namespace: request.namespace, serviceaccount: { name: request.name, uid: request.uid } },
      })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(SERVICE_ACCOUNT_ISSUER)
        .setSubject(`system:serviceaccount:${request.namespace}:${request.name}`)
        .setAudience(audiences)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(exp)
        .setJti(crypto.randomUUID())
        .sign(privateKey);
      return { token, audiences, expirationTimestamp: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, publicKey, { issuer: SERVICE_ACCOUNT_ISSUER, algorithms: ['ES256'] });
        return typeof payload.sub === 'string' ? payload.sub : undefined;
      } catch {
        return undefined;
      }
    },
    serveDiscovery(res, path) {
      const body = path === '/openid/v1/jwks'
        ? { keys: [{ ...publicJwk, kid, use: 'sig', alg: 'ES256' }] }
        : { issuer: SERVICE_ACCOUNT_ISSUER, jwks_uri: `${SERVICE_ACCOUNT_ISSUER}/openid/v1/jwks`, response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['ES256'] };
      const text = JSON.stringify(body);
      res.writeHead(200, { 'Content-Type': path === '/openid/v1/jwks' ? 'application/jwk-set+json' : 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    },
    privateJwk: () => privateJwk,
  };
}
