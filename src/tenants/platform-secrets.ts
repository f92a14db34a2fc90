// The gateway keeps no state of its own: its CAs and signing keys live in
// Secrets in the upstream's warren-system namespace, created by whichever
// replica gets there first (create, and on 409 read what the other one wrote).
import { ApiError } from '../core/api-error.ts';
import type { KubeObject } from '../core/types.ts';
import type { Upstream } from '../kube/upstream.ts';
import { createCa, type KeyPairPem } from '../pki/certificates.ts';
import { createSigningKeySet, type SigningKeySet } from './credentials/signing-keys.ts';

export const SYSTEM_NAMESPACE = 'warren-system';
const TENANT_CA_SECRET = 'warren-tenant-ca';
const SERVING_CA_SECRET = 'warren-serving-ca';
const SIGNING_KEYS_SECRET = 'warren-signing-keys';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const unb64 = (text: unknown): string => Buffer.from(String(text ?? ''), 'base64').toString('utf8');

async function ensureNamespace(upstream: Upstream): Promise<void> {
  const answer = await upstream.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SYSTEM_NAMESPACE } });
  if (answer.status !== 201 && answer.status !== 409) throw new ApiError('InternalError', `cannot create namespace ${SYSTEM_NAMESPACE}: HTTP ${answer.status}`);
}

/** Reads the Secret, or creates it with `make()`'s data; a concurrent creator wins and its data is used. */
async function ensureSecret(upstream: Upstream, name: string, make: () => Promise<Record<string, string>>): Promise<Record<string, string>> {
  const path = `/api/v1/namespaces/${SYSTEM_NAMESPACE}/secrets`;
  const read = async (): Promise<Record<string, string> | undefined> => {
    const answer = await upstream.request<KubeObject>('GET', `${path}/${name}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new ApiError('InternalError', `cannot read secret ${SYSTEM_NAMESPACE}/${name}: HTTP ${answer.status}`);
    return Object.fromEntries(Object.entries((answer.body.data ?? {}) as Record<string, string>).map(([k, v]) => [k, unb64(v)]));
  };
  const existing = await read();
  if (existing) return existing;
  const data = await make();
  const created = await upstream.request('POST', path, {
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: { name, labels: { 'app.kubernetes.io/managed-by': 'warren' } },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  });
  if (created.status === 201) return data;
  if (created.status === 409) return (await read()) ?? data;
  throw new ApiError('InternalError', `cannot create secret ${SYSTEM_NAMESPACE}/${name}: HTTP ${created.status}`);
}

export interface GatewaySecrets {
  tenantCa: KeyPairPem;
  servingCa: KeyPairPem;
  signingKeys: SigningKeySet;
}

export async function loadGatewaySecrets(upstream: Upstream): Promise<GatewaySecrets> {
  await ensureNamespace(upstream);
  const pair = async (commonName: string): Promise<Record<string, string>> => {
    const ca = await createCa(commonName, 10);
    return { 'tls.crt': ca.certPem, 'tls.key': ca.keyPem };
  };
  const tenantCa = await ensureSecret(upstream, TENANT_CA_SECRET, () => pair('warren-tenant-ca'));
  const servingCa = await ensureSecret(upstream, SERVING_CA_SECRET, () => pair('warren-serving-ca'));
  const keys = await ensureSecret(upstream, SIGNING_KEYS_SECRET, async () => ({ 'keys.json': JSON.stringify(await createSigningKeySet()) }));
  return {
    tenantCa: { certPem: tenantCa['tls.crt'] ?? '', keyPem: tenantCa['tls.key'] ?? '' },
    servingCa: { certPem: servingCa['tls.crt'] ?? '', keyPem: servingCa['tls.key'] ?? '' },
    signingKeys: JSON.parse(keys['keys.json'] ?? '{}') as SigningKeySet,
  };
}
