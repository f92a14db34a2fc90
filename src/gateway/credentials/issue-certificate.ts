// Client certificates for tenant users, and the kubeconfig that carries one.
// Subject convention (decided for the gateway): CN=<user>, OU=<tenant id>,
// O=<group>... with user and groups in the tenant's own terms.
//
// Why not src/pki/certificates.ts issueCertificate: it writes only CN and O and
// backdates notBefore by a minute. Here the subject needs OU, and notBefore is
// the credential's issue instant that revocation compares against
// (TenantInfo.credentialsNotBefore): a backdated notBefore would make a
// certificate issued just after `warren tenant revoke` look revoked.
import '../../pki/certificates.ts'; // side effect: reflect-metadata and the WebCrypto provider for @peculiar/x509
import * as x509 from '@peculiar/x509';
import { webcrypto, randomBytes } from 'node:crypto';
import { assertTenantId } from '../../core/tenancy/tenant-id.ts';
import { buildKubeconfig } from '../../pki/kubeconfig.ts';
import type { IssuedCertificate, KeyPairPem } from '../../pki/certificates.ts';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface TenantUserCertificateOptions {
  /** Warren's tenant CA (the one the gateway listener trusts for client certificates). */
  ca: KeyPairPem;
  tenantId: string;
  user: string;
  groups: string[];
  lifetimeMs: number;
  /** Issue instant; defaults to now. Tests use a past instant to make expired certificates. */
  notBefore?: Date;
}

export interface TenantUserCertificate extends IssuedCertificate {
  notBefore: Date;
}

async function importPkcs8(pem: string): Promise<webcrypto.CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
}

function toPem(der: ArrayBuffer, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function positiveSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

// The CA parsed and its key imported once per CA object, not per certificate: onboarding
// issues one per tenant user, and parsing and importing were ~15% of `warren serve` CPU
// when onboarding 1,000 tenants. Keyed by the object, so a rotated CA is a new entry.
const parsedCas = new WeakMap<KeyPairPem, Promise<{ caCert: x509.X509Certificate; caKey: webcrypto.CryptoKey; aki: x509.Extension }>>();

function parsedCa(ca: KeyPairPem): Promise<{ caCert: x509.X509Certificate; caKey: webcrypto.CryptoKey; aki: x509.Extension }> {
  let parsed = parsedCas.get(ca);
  if (!parsed) {
    const caCert = new x509.X509Certificate(ca.certPem);
    parsed = Promise.all([importPkcs8(ca.keyPem), x509.AuthorityKeyIdentifierExtension.create(caCert, false)]).then(([caKey, aki]) => ({ caCert, caKey, aki }));
    parsedCas.set(ca, parsed);
    parsed.catch(() => parsedCas.delete(ca));
  }
  return parsed;
}

export async function issueTenantUserCertificate(options: TenantUserCertificateOptions): Promise<TenantUserCertificate> {
  assertTenantId(options.tenantId);
  if (options.user === '') throw new TypeError('a tenant user certificate needs a user name');
  const { caCert, caKey, aki } = await parsedCa(options.ca);
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  // X.509 times have whole seconds: floor here so the certificate says exactly what we report.
  const notBefore = new Date(Math.floor((options.notBefore ?? new Date()).getTime() / 1000) * 1000);
  const notAfter = new Date(notBefore.getTime() + options.lifetimeMs);
  // A JSON name, not a DN string: user and group names need no escaping this way.
  const subject: x509.JsonName = [{ CN: [options.user] }, { OU: [options.tenantId] }, ...options.groups.map((g) => ({ O: [g] }))];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: positiveSerial(),
    subject,
    issuer: caCert.subject,
    notBefore,
    notAfter,
    signingKey: caKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], false),
      aki,
    ],
  });
  const keyPem = toPem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { certPem: cert.toString('pem') + '\n', keyPem, notBefore, notAfter };
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
