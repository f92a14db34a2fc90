// Kubeconfig files merged as kubectl merges a $KUBECONFIG list, on kubeconfig-view's
// reading (the one client-node's KubeConfig would make). Why not KubeConfig itself:
// importing client-node cost every `warren tenant/member/apply/status/admin` command
// about 3 s of CPU, for a merge of three lists; the e2e tests run hundreds of them.
// What client-node's loadFromFile + exportConfig did is kept: relative certificate
// and key paths are made absolute against their file's directory, the token file is
// read at load, and the export carries exec and auth-provider users whole (the
// upstream client hands those to client-node, loaded then).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parseKubeconfig, type KubeconfigView } from '../kube/kubeconfig-view.ts';

function absolute(root: string, file: string | undefined): string | undefined {
  return file === undefined || isAbsolute(file) ? file : join(root, file);
}

/** One kubeconfig file, its file paths made absolute as client-node's loadFromFile makes them. */
export function readKubeconfigFile(path: string): KubeconfigView {
  const view = parseKubeconfig(readFileSync(path, 'utf8'));
  const root = dirname(path);
  return {
    ...view,
    clusters: view.clusters.map((c) => dropUndefined({ ...c, caFile: absolute(root, c.caFile) })),
    users: view.users.map((u) => dropUndefined({ ...u, certFile: absolute(root, u.certFile), keyFile: absolute(root, u.keyFile) })),
  };
}

function dropUndefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** kubectl's merge: the first file to define a cluster, user or context name (or current-context) keeps it. */
export function mergeKubeconfigs(views: readonly KubeconfigView[]): KubeconfigView {
  const [first, ...rest] = views;
  if (!first) return { clusters: [], users: [], contexts: [] };
  const merged: KubeconfigView = { ...first, clusters: [...first.clusters], users: [...first.users], contexts: [...first.contexts] };
  for (const one of rest) {
    if (!merged.currentContext && one.currentContext) merged.currentContext = one.currentContext;
    const add = <T extends { name: string }>(into: T[], from: readonly T[]): void => {
      for (const entry of from) if (!into.some((e) => e.name === entry.name)) into.push(entry);
    };
    add(merged.clusters, one.clusters);
    add(merged.users, one.users);
    add(merged.contexts, one.contexts);
  }
  return merged;
}

/** The view as a kubeconfig document (JSON, which is YAML), in the shape client-node's exportConfig writes. */
export function exportKubeconfig(view: KubeconfigView): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: view.clusters.map((c) => ({
      name: c.name,
      cluster: {
        server: c.server,
        'certificate-authority-data': c.caData,
        'certificate-authority': c.caFile,
        'insecure-skip-tls-verify': c.skipTLSVerify,
        'tls-server-name': c.tlsServerName,
        'proxy-url': c.proxyUrl,
      },
    })),
    users: view.users.map((u) => ({
      name: u.name,
      user: {
        as: u.impersonateUser,
        'auth-provider': u.authProvider,
        'client-certificate-data': u.certData,
        'client-certificate': u.certFile,
        exec: u.exec,
        'client-key-data': u.keyData,
        'client-key': u.keyFile,
        token: u.token,
        password: u.password,
        username: u.username,
      },
    })),
    contexts: view.contexts.map((c) => ({ name: c.name, context: { cluster: c.cluster, user: c.user, namespace: c.namespace } })),
    preferences: {},
    'current-context': view.currentContext,
  });
}
