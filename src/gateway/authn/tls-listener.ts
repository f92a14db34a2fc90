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
// Trap: OpenSSL reports the LAST error of the chain, so another CA's certificate
// outside its dates reports CERT_HAS_EXPIRED / CERT_NOT_YET_VALID, not the
// unknown issuer. Such a verdict is trusted as "ours, out of date" only once
// the certificate is checked here to be signed by the tenant CA.
import { X509Certificate } from 'node:crypto';
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
 * A certificate Warren's CA did sign, used outside its validity window: the client is one of
 * ours and gets kube's 401 ("You must be logged in"), not a cut connection that looks like a
 * network fault. OpenSSL's date verdict alone does not say the CA signed it (see the trap above).
 */
const OUT_OF_DATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** Every certificate in a PEM bundle (the tenant CA, or several while it rotates). */
export function parseCaBundle(pem: string): X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((block) => new X509Certificate(block));
}

/** Whether one of the CAs issued and signed this certificate itself (tenant certificates have no intermediate). */
function signedByOneOf(cert: X509Certificate | undefined, cas: X509Certificate[]): boolean {
  return cert !== undefined && cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey));
}

/** Whether a finished handshake must be dropped: a presented certificate that did not verify against the tenant CA. */
export function mustRefuse(socket: TLSSocket, tenantCas: X509Certificate[]): RefusedCertificate | undefined {
  if (socket.authorized) return undefined;
  const cert = presentedCertificate(socket);
  if (!cert) return undefined;
  const reason = String(socket.authorizationError ?? 'unverified');
  if (OUT_OF_DATE.has(reason) && signedByOneOf(socket.getPeerX509Certificate(), tenantCas)) return undefined;
  const subject = Object.entries(cert.subject ?? {}).map(([k, v]) => `${k}=${String(v)}`).join(', ');
  return { reason, subject, remoteAddress: socket.remoteAddress };
}

export interface RefusalOptions {
  /** The tenant CA as given to createGatewayTlsOptions (a PEM bundle). */
  tenantCaPem: string;
  /** For the security log. */
  onRefused?: (refused: RefusedCertificate) => void;
}

/** Installs the refusal on a TLS (or HTTPS) server built with createGatewayTlsOptions. */
export function refuseUnverifiedClientCertificates(server: Server, options: RefusalOptions): void {
  const tenantCas = parseCaBundle(options.tenantCaPem);
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    const refused = mustRefuse(socket, tenantCas);
    if (!refused) return;
    socket.destroy();
    options.onRefused?.(refused);
  });
}
