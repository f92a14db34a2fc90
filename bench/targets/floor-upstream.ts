// The floor proxies' way upstream (gateway-floor-proxy.ts, lean-floor-proxy.ts): the first cluster and
// user of the upstream's admin kubeconfig, as TLS options for a keep-alive agent.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

interface KubeconfigDoc {
  clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
  users?: { user?: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
}

export interface FloorUpstream {
  server: string;
  tls: { ca: string; cert: string; key: string };
}

export function floorUpstream(kubeconfigPath: string): FloorUpstream {
  const doc = parse(readFileSync(kubeconfigPath, 'utf8')) as KubeconfigDoc;
  const cluster = doc.clusters?.[0]?.cluster;
  const user = doc.users?.[0]?.user;
  const b64 = (s: string | undefined): string => Buffer.from(s ?? '', 'base64').toString('utf8');
  if (!cluster?.server) throw new Error('kubeconfig: no cluster server');
  return {
    server: cluster.server,
    tls: { ca: b64(cluster['certificate-authority-data']), cert: b64(user?.['client-certificate-data']), key: b64(user?.['client-key-data']) },
  };
}
