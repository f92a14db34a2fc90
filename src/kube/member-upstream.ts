// A member cluster's Upstream, from its Cluster object and the Secret its
// spec.secretRef names, the two forms Karmada accepts:
//   data.kubeconfig                      a whole kubeconfig (warren member add);
//   data.token (+ data.caBundle)         with spec.apiEndpoint (karmadactl join).
// Secret data is base64, as the API returns it.
import { stringify } from 'yaml';
import { ApiError } from '../core/api-error.ts';
import type { Cluster } from '../core/propagation/karmada-types.ts';
import { createUpstream, type UpstreamOptions } from './upstream-client.ts';
import type { Upstream } from './upstream.ts';

export interface SecretData {
  data?: Record<string, string>;
}

/** Where members' credential Secrets live in the host, and how `warren member add` names them. */
export const MEMBER_SECRET_NAMESPACE = 'warren-system';
export function memberSecretName(clusterName: string): string {
  return `cluster-${clusterName}`;
}

function decode(value: string | undefined): string | undefined {
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

/**
 * The kubeconfig (YAML) that reaches the member; throws Invalid when the Secret
 * holds neither form. Pure apart from base64, so it is table-tested alone.
 */
export function buildMemberKubeconfig(cluster: Cluster, secret: SecretData): string {
  const name = cluster.metadata.name ?? 'member';
  const kubeconfig = decode(secret.data?.kubeconfig);
  if (kubeconfig && kubeconfig.trim() !== '') return kubeconfig;
  const token = decode(secret.data?.token);
  if (!token) throw new ApiError('Invalid', `cluster ${name}: the secret has neither "kubeconfig" nor "token"`);
  const server = cluster.spec.apiEndpoint;
  if (!server) throw new ApiError('Invalid', `cluster ${name}: spec.apiEndpoint is required with a token secret`);
  const clusterEntry: Record<string, unknown> = { server };
  // caBundle is already base64 PEM: exactly what certificate-authority-data holds.
  if (secret.data?.caBundle) clusterEntry['certificate-authority-data'] = secret.data.caBundle;
  if (cluster.spec.insecureSkipTLSVerification === true) clusterEntry['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: clusterEntry }],
    users: [{ name, user: { token: token.trim() } }],
    contexts: [{ name, context: { cluster: name, user: name } }],
    'current-context': name,
  });
}

export function memberUpstream(cluster: Cluster, secret: SecretData, options: UpstreamOptions = {}): Upstream {
  return createUpstream({ yaml: buildMemberKubeconfig(cluster, secret) }, options);
}
