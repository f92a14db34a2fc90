// The embedded apiserver's credentials: a CA, a serving certificate for
// loopback, an admin client certificate (O=system:masters), an admin bearer
// token and the ServiceAccount signing key. Kept in DIR/pki so restarts keep
// every kubeconfig valid; generated in memory when there is no data directory.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes, X509Certificate } from 'node:crypto';
import type { JWK } from 'jose';
import { createCa, issueCertificate, type KeyPairPem } from '../pki/certificates.ts';
import { writeFileAtomic } from './files.ts';

export interface ApiServerCredentials {
  ca: KeyPairPem;
  serving: KeyPairPem;
  admin: KeyPairPem;
  adminToken: string;
  serviceAccountKey?: JWK;
}

const YEAR_MS = 365 * 24 * 3600_000;
const RENEW_BEFORE_MS = 30 * 24 * 3600_000;

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

function stillValid(certPem: string | undefined): boolean {
  if (!certPem) return false;
  try {
    return new Date(new X509Certificate(certPem).validTo).getTime() - Date.now() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

async function loadPair(dir: string | undefined, name: string, make: () => Promise<KeyPairPem>): Promise<KeyPairPem> {
  if (!dir) return make();
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  const certPem = await readOptional(certPath);
  const keyPem = await readOptional(keyPath);
  if (certPem && keyPem && stillValid(certPem)) return { certPem, keyPem };
  const pair = await make();
  await writeFileAtomic(keyPath, pair.keyPem, 0o600);
  await writeFileAtomic(certPath, pair.certPem, 0o644);
  return pair;
}

export async function loadCredentials(dataDir: string | undefined, host: string): Promise<ApiServerCredentials> {
  const dir = dataDir ? join(dataDir, 'pki') : undefined;
  if (dir) await mkdir(dir, { recursive: true, mode: 0o700 });
  const ca = await loadPair(dir, 'ca', () => createCa('warren-apiserver-ca', 10));
  const ips = [...new Set(['127.0.0.1', '::1', ...(/^[\d.]+$|:/.test(host) ? [host] : [])])];
  const dnsNames = [...new Set(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', ...(/^[\d.]+$|:/.test(host) ? [] : [host])])];
  const serving = await loadPair(dir, 'apiserver', () => issueCertificate({ ca, commonName: 'kube-apiserver', dnsNames, ips, lifetimeMs: YEAR_MS }));
  const admin = await loadPair(dir, 'admin', () => issueCertificate({ ca, commonName: 'warren-admin', organizations: ['system:masters'], lifetimeMs: YEAR_MS }));
  let adminToken = dir ? (await readOptional(join(dir, 'admin-token')))?.trim() : undefined;
  if (!adminToken) {
    adminToken = randomBytes(32).toString('base64url');
    if (dir) await writeFileAtomic(join(dir, 'admin-token'), `${adminToken}\n`, 0o600);
  }
  let serviceAccountKey: JWK | undefined;
  const jwk = dir ? await readOptional(join(dir, 'service-account.jwk')) : undefined;
  if (jwk) serviceAccountKey = JSON.parse(jwk) as JWK;
  const result: ApiServerCredentials = { ca, serving, admin, adminToken };
  if (serviceAccountKey) result.serviceAccountKey = serviceAccountKey;
  return result;
}

export async function saveServiceAccountKey(dataDir: string | undefined, key: JWK): Promise<void> {
  if (!dataDir) return;
  await writeFileAtomic(join(dataDir, 'pki', 'service-account.jwk'), JSON.stringify(key), 0o600);
}
