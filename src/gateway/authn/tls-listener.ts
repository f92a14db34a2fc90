// The gateway's TLS listener: client certificates are optional (bearer-token
// clients and /healthz, /livez, /readyz, /version callers present none), but a
// certificate that IS presented must chain to Warren's tenant CA.
//
// Why not `rejectUnauthorized: true`: Node then refuses every client without a
// certificate too. Node never lets OpenSSL fail the handshake on its own (its
// verify callback always accepts and leaves the verdict to JS, which checks it
// once the handshake is done), so `rejectUnauthorized: true` itself is "destroy
// the socket right after the handshake". We do the same, with one difference:
// only when a certificate was presented. The hook runs on 'secureConnection'
// prepended before the HTTP layer's own listener, so the connection is closed
// before a single HTTP byte is read; the client sees the connection reset, never
// an HTTP response. Expired, not-yet-valid and foreign-CA certificates all fail
// verification and are refused the same way.
import type { ServerOptions } from 'node:https';
import type { Server, TLSSocket } from 'node:tls';
import { presentedCertificate } from './client-certificate.ts';

export interface GatewayTlsConfig {
  servingCert: string;
  servingKey: string;
  /** Warren's tenant CA: the only issuer of client certificates the gateway accepts. */
  tenantCaPem: string;
}

export function createGatewayTlsOptions(config: GatewayTlsConfig): ServerOptions {
  return {
    cert: config.servingCert,
    key: config.servingKey,
    // `ca` replaces Node's default roots for client verification: a certificate
    // from a public CA is as foreign as one from any other private CA.
    ca: config.tenantCaPem,
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2',
  };
}

export interface RefusedCertificate {
  reason: string;
  subject: string;
  remoteAddress: string | undefined;
}

/**
 * A certificate Warren's CA did sign, used outside its validity window: the chain
 * verified (OpenSSL checks the issuer before the dates), so the client is one of
 * ours and gets kube's 401 ("You must be logged in"), not a cut connection that
 * looks like a network fault.
 */
const OUR_CERTIFICATE_OUT_OF_DATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** Whether a finished handshake must be dropped: a presented certificate that did not verify against the tenant CA. */
export function mustRefuse(socket: TLSSocket): RefusedCertificate | undefined {
  if (socket.authorized) return undefined;
  const cert = presentedCertificate(socket);
  if (!cert) return undefined;
  if (OUR_CERTIFICATE_OUT_OF_DATE.has(String(socket.authorizationError))) return undefined;
  const subject = Object.entries(cert.subject ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(', ');
  return { reason: String(socket.authorizationError ?? 'unverified'), subject, remoteAddress: socket.remoteAddress };
}

/**
 * Installs the refusal on a TLS (or HTTPS) server built with createGatewayTlsOptions.
 * `onRefused` is for the security log.
 */
export function refuseUnverifiedClientCertificates(server: Server, onRefused?: (refused: RefusedCertificate) => void): void {
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    const refused = mustRefuse(socket);
    if (!refused) return;
    socket.destroy();
    onRefused?.(refused);
  });
}
