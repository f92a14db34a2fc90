// X.509 for the embedded apiserver: a self-signed CA, a serving certificate for
// loopback, and client certificates. ECDSA P-256 throughout, via WebCrypto and
// @peculiar/x509 (which needs the reflect-metadata polyfill loaded first).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto, randomBytes } from 'node:crypto';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface KeyPairPem {
  certPem: string;
  keyPem: string;
}

export interface IssuedCertificate extends KeyPairPem {
  notAfter: Date;
}

function toPem(der: ArrayBuffer, label: string): string {
  const b64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

async function exportKeyPem(key: CryptoKey): Promise<string> {
  return toPem(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

async function importKeyPem(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
}

function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // positive
  return bytes.toString('hex');
}

function escapeDn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1');
}

export async function createCa(commonName: string, years = 10): Promise<IssuedCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + years * 365 * 24 * 3600_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${escapeDn(commonName)}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await exportKeyPem(keys.privateKey), notAfter };
}

export interface IssueOptions {
  ca: KeyPairPem;
  commonName: string;
  organizations?: string[];
  /** Serving certificate: DNS names and IPs. Omit for a client certificate. */
  dnsNames?: string[];
  ips?: string[];
  lifetimeMs: number;
}

export async function issueCertificate(options: IssueOptions): Promise<IssuedCertificate> {
  const caCert = new x509.X509Certificate(options.ca.certPem);
  const caKey = await importKeyPem(options.ca.keyPem);
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + options.lifetimeMs);
  const subject = [`CN=${escapeDn(options.commonName)}`, ...(options.organizations ?? []).map((o) => `O=${escapeDn(o)}`)].join(', ');
  const serving = (options.dnsNames?.length ?? 0) + (options.ips?.length ?? 0) > 0;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([serving ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth], false),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
  ];
  if (serving) {
    extensions.push(new x509.SubjectAlternativeNameExtension([
      ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
      ...(options.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
    ]));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: caCert.subject,
    notBefore,
    notAfter,
    signingKey: caKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions,
  });
  return { certPem: cert.toString('pem') + '\n', keyPem: await exportKeyPem(keys.privateKey), notAfter };
}
