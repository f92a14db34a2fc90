// Client certificates for tenant users, and the kubeconfig that carries one.
// Subject convention (decided for the gateway): CN=<user>, OU=<tenant id>,
// O=<group>... with user and groups in the tenant's own terms.
//
// Why not src/pki/certificates.ts issueCertificate: it writes only CN and O and
// backdates notBefore by a minute. Here the subject needs OU, and notBefore is
// the credential's issue instant that revocation compares against
// (TenantInfo.credentialsNotBefore): a backdated notBefore would make a
// certificate issued just after `warren tenant revoke` look revoked.
//
// The price of an un-backdated notBefore: for a moment after issue, a verifier
// whose clock reads a little earlier sees a not-yet-valid certificate. The
// gateway's own TLS verifier is one: OpenSSL reads the time with time(), which
// glibc serves from the kernel's coarse clock, a tick behind the precise clock
// Date.now() reads (up to ~6 ms measured on the CI machine). A certificate
// issued in the first milliseconds of a second and used at once got
// CERT_NOT_YET_VALID, hence 401 (the session 10 CI flake). So a certificate is
// handed out only once its validity has begun by more than that lag.
import '../../pki/certificates.ts'; // side effect: reflect-metadata and the WebCrypto provider for @peculiar/x509
import * as x509 from '@peculiar/x509';
import { createPrivateKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { assertTenantId } from '../../core/tenancy/tenant-id.ts';
import { buildKubeconfig } from '../../pki/kubeconfig.ts';
import type { IssuedCertificate, KeyPairPem } from '../../pki/certificates.ts';
import { buildCertificate, buildTbsCertificate, derName, derSubjectAltNameUris, type NameAttribute } from './certificate-der.ts';
import { tenantUidUri } from './tenant-binding.ts';

const generateEcKeyPair = promisify(generateKeyPair);

export interface TenantUserCertificateOptions {
  /** Warren's tenant CA (the one the gateway listener trusts for client certificates). */
  ca: KeyPairPem;
  tenantId: string;
  user: string;
  groups: string[];
  lifetimeMs: number;
  /**
   * The Tenant object's metadata.uid, written as a subjectAltName URI: the gateway
   * refuses the certificate for any other Tenant with the same id (ADR 0025).
   */
  tenantUid?: string;
  /** Issue instant; defaults to now. Tests use a past instant to make expired certificates. */
  notBefore?: Date;
}

export interface TenantUserCertificate extends IssuedCertificate {
  notBefore: Date;
}

/**
 * How far a verifier's clock may lag ours and still find a just-issued certificate valid:
 * covers the coarse clock's tick (1-10 ms) with room for a loaded machine.
 */
export const VERIFIER_CLOCK_LAG_MS = 100;

/** Waits until `notBefore` is VERIFIER_CLOCK_LAG_MS in the past; a notBefore further ahead is the caller's choice (a test's future certificate) and is not waited for. */
async function untilValidForVerifiers(notBefore: Date): Promise<void> {
  const validForAll = notBefore.getTime() + VERIFIER_CLOCK_LAG_MS;
  if (validForAll - Date.now() > VERIFIER_CLOCK_LAG_MS) return;
  // A loop, not one timer: timers run on the event loop's cached monotonic time and may wake a little early by Date.now().
  for (let wait = validForAll - Date.now(); wait >= 0; wait = validForAll - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, wait + 1));
  }
}

function toPem(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function positiveSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes;
}

// A client certificate's constraints, the same for every tenant user: not a CA (critical),
// digitalSignature only (critical), clientAuth only. DER made once, by @peculiar/x509.
let constantExtensions: Buffer[] | undefined;
function clientExtensions(): Buffer[] {
  constantExtensions ??= [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], false),
  ].map((e) => Buffer.from(e.rawData));
  return constantExtensions;
}

interface ParsedCa {
  /** The CA's subject as the issuer Name, DER (encoded by @peculiar/x509 from the CA certificate, as before). */
  issuer: Buffer;
  /** AuthorityKeyIdentifier from the CA's key, DER. */
  aki: Buffer;
  key: KeyObject;
}

// The CA parsed, its key imported and the parts of a certificate that depend only on it
// encoded once per CA object, not per certificate: onboarding issues one per tenant user.
// Keyed by the object, so a rotated CA is a new entry.
const parsedCas = new WeakMap<KeyPairPem, Promise<ParsedCa>>();

function parsedCa(ca: KeyPairPem): Promise<ParsedCa> {
  let parsed = parsedCas.get(ca);
  if (!parsed) {
    parsed = (async () => {
      const caCert = new x509.X509Certificate(ca.certPem);
      const aki = await x509.AuthorityKeyIdentifierExtension.create(caCert, false);
      const key = createPrivateKey(ca.keyPem);
      if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new TypeError('the tenant CA key must be ECDSA P-256');
      return { issuer: Buffer.from(new x509.Name(caCert.subject).toArrayBuffer()), aki: Buffer.from(aki.rawData), key };
    })();
    parsedCas.set(ca, parsed);
    parsed.catch(() => parsedCas.delete(ca));
  }
  return parsed;
}

/**
 * An ECDSA P-256 client certificate for one tenant user, signed by the tenant CA:
 * subject CN=<user>, OU=<tenant id>, O=<group>... (each value verbatim), validity
 * [notBefore floored to the second, + lifetimeMs), not a CA, digitalSignature,
 * clientAuth, the CA's key identifier, and (given tenantUid) the Tenant's uid
 * as a subjectAltName URI. Resolves only once the certificate is valid for a
 * verifier whose clock lags ours by up to VERIFIER_CLOCK_LAG_MS.
 */
export async function issueTenantUserCertificate(options: TenantUserCertificateOptions): Promise<TenantUserCertificate> {
  assertTenantId(options.tenantId);
  if (options.user === '') throw new TypeError('a tenant user certificate needs a user name');
  const [ca, keys] = await Promise.all([
    parsedCa(options.ca),
    generateEcKeyPair('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }),
  ]);
  // X.509 times have whole seconds: floor here so the certificate says exactly what we report.
  const notBefore = new Date(Math.floor((options.notBefore ?? new Date()).getTime() / 1000) * 1000);
  const notAfter = new Date(notBefore.getTime() + options.lifetimeMs);
  const subject: Array<[NameAttribute, string]> = [['CN', options.user], ['OU', options.tenantId], ...options.groups.map((g): [NameAttribute, string] => ['O', g])];
  const tbs = buildTbsCertificate({
    serial: positiveSerial(),
    issuer: ca.issuer,
    notBefore,
    notAfter,
    subject: derName(subject),
    spki: keys.publicKey,
    extensions: [...clientExtensions(), ca.aki, ...(options.tenantUid !== undefined ? [derSubjectAltNameUris([tenantUidUri(options.tenantUid)])] : [])],
  });
  const certDer = buildCertificate(tbs, sign('sha256', tbs, ca.key));
  await untilValidForVerifiers(notBefore);
  return { certPem: toPem(certDer, 'CERTIFICATE'), keyPem: keys.privateKey, notBefore, notAfter };
}

export interface TenantUserKubeconfigOptions {
  /** The gateway's URL as the tenant reaches it. */
  server: string;
  /** The CA that signed the gateway's serving certificate (not the tenant CA). */
  caCertPem: string;
  /** The tenant's human name: it names the cluster and context, so it reads well in `kubectl config`. */
  tenantName: string;
  user: string;
  cert: string;
  key: string;
  namespace?: string;
}

export function tenantUserKubeconfig(options: TenantUserKubeconfigOptions): string {
  return buildKubeconfig({
    clusterName: options.tenantName,
    server: options.server,
    caCertPem: options.caCertPem,
    userName: `${options.user}@${options.tenantName}`,
    clientCertPem: options.cert,
    clientKeyPem: options.key,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  });
}
