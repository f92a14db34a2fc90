// A kubeconfig for a pod's own ServiceAccount (upstream.inCluster), in the
// shape client-node's loadFromCluster builds: the token as a tokenFile auth
// provider, so createUpstream re-reads it (kubelet rotates bound tokens about
// hourly) instead of freezing the first one. Pure: the caller passes env.
import { stringify } from 'yaml';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export function buildInClusterKubeconfig(env: Record<string, string | undefined>, dir: string = SERVICE_ACCOUNT_DIR): string {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('upstream.inCluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not running in a pod?)');
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'in-cluster', cluster: { server, 'certificate-authority': `${dir}/ca.crt` } }],
    users: [{ name: 'in-cluster', user: { 'auth-provider': { name: 'tokenFile', config: { tokenFile: `${dir}/token` } } } }],
    contexts: [{ name: 'in-cluster', context: { cluster: 'in-cluster', user: 'in-cluster' } }],
    'current-context': 'in-cluster',
  });
}

/** The leader-election identity: configured, else the pod name (downward API), else hostname + pid. */
export function buildLeaderIdentity(configured: string, env: Record<string, string | undefined>, hostname: string, pid: number): string {
  if (configured) return configured;
  if (env.POD_NAME) return env.POD_NAME;
  return `${hostname}_${pid}`;
}
