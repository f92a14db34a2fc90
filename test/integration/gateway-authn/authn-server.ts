// A throwaway HTTPS server wired as the gateway front will be: the gateway TLS
// options and refusal hook, identity headers stripped first, then the
// authenticator. It answers the identity (or the Status) as JSON, plus the
// headers it saw, so tests can see what authentication was given.
import { createServer, request } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { createCa, issueCertificate } from '../../../src/pki/certificates.ts';
import type { IssuedCertificate } from '../../../src/pki/certificates.ts';
import { toApiError } from '../../../src/core/api-error.ts';
import { createAuthenticator } from '../../../src/gateway/authn/authenticate.ts';
import type { TokenAuthenticator } from '../../../src/gateway/authn/bearer-token.ts';
import { stripIdentityHeaders } from '../../../src/gateway/authn/strip-identity-headers.ts';
import { createGatewayTlsOptions, refuseUnverifiedClientCertificates } from '../../../src/gateway/authn/tls-listener.ts';
import type { RefusedCertificate } from '../../../src/gateway/authn/tls-listener.ts';
import { publicJwks } from '../../../src/tenants/credentials/signing-keys.ts';
import type { SigningKeySet } from '../../../src/tenants/credentials/signing-keys.ts';
import type { TenantDirectory } from '../../../src/tenants/tenant-directory.ts';

const UNAUTHENTICATED = new Set(['/healthz', '/livez', '/readyz', '/version']);

export interface AuthnServer {
  url: string;
  servingCa: IssuedCertificate;
  /** Requests that reached the HTTP handler (a refused handshake never does). */
  handled: string[];
  refused: RefusedCertificate[];
  stop(): Promise<void>;
}

export async function startAuthnServer(options: { tenantCaPem: string; tenants: TenantDirectory; tokens: TokenAuthenticator; keys: SigningKeySet }): Promise<AuthnServer> {
  const servingCa = await createCa('gateway-serving-ca');
  const serving = await issueCertificate({ ca: servingCa, commonName: 'gateway', ips: ['127.0.0.1'], lifetimeMs: 3600_000 });
  const authenticate = createAuthenticator({ tenants: options.tenants, tokens: options.tokens });
  const handled: string[] = [];
  const refused: RefusedCertificate[] = [];
  const server: Server = createServer(createGatewayTlsOptions({ servingCert: serving.certPem, servingKey: serving.keyPem, tenantCaPem: options.tenantCaPem }), (req, res) => {
    stripIdentityHeaders(req);
    const path = req.url ?? '/';
    handled.push(path);
    const send = (code: number, body: unknown): void => {
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (UNAUTHENTICATED.has(path)) return send(200, { ok: true });
    if (path === '/openid/v1/jwks') return send(200, publicJwks(options.keys));
    authenticate(req).then(
      (identity) => send(200, { identity, headers: req.headers, rawHeaders: req.rawHeaders }),
      (err) => {
        const status = toApiError(err).toStatus();
        send(status.code ?? 500, status);
      },
    );
  });
  refuseUnverifiedClientCertificates(server, { tenantCaPem: options.tenantCaPem, onRefused: (r) => refused.push(r) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    servingCa,
    handled,
    refused,
    stop: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface Reply {
  status: number;
  body: any;
}

export interface CallOptions {
  cert?: string;
  key?: string;
  token?: string;
  headers?: Record<string, string>;
  path?: string;
  /** Pin the client to one TLS version (1.2 verifies the client certificate before the server's Finished, 1.3 after). */
  tlsVersion?: 'TLSv1.2' | 'TLSv1.3';
}

/** One request on a fresh connection (agent: false), so no TLS session is reused between cases. */
export function call(server: AuthnServer, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${options.path ?? '/api'}`, {
      ca: server.servingCa.certPem,
      ...(options.cert !== undefined ? { cert: options.cert, key: options.key } : {}),
      ...(options.tlsVersion ? { minVersion: options.tlsVersion, maxVersion: options.tlsVersion } : {}),
      headers,
      agent: false,
    }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
