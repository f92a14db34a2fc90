// Builds kubeconfig files (YAML) with embedded credentials.
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  clusterName: string;
  server: string;
  caCertPem: string;
  userName: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  token?: string;
  namespace?: string;
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

export function buildKubeconfig(options: KubeconfigOptions): string {
  const user: Record<string, string> = {};
  if (options.clientCertPem) user['client-certificate-data'] = b64(options.clientCertPem);
  if (options.clientKeyPem) user['client-key-data'] = b64(options.clientKeyPem);
  if (options.token) user.token = options.token;
  const context: Record<string, string> = { cluster: options.clusterName, user: options.userName };
  if (options.namespace) context.namespace = options.namespace;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: options.clusterName, cluster: { server: options.server, 'certificate-authority-data': b64(options.caCertPem) } }],
    users: [{ name: options.userName, user }],
    contexts: [{ name: options.clusterName, context }],
    'current-context': options.clusterName,
    preferences: {},
  });
}
