// A kubeconfig read the way @kubernetes/client-node's KubeConfig reads it
// (loadFromString, getCurrentCluster/User, applyToHTTPSOptions), for users whose
// credentials are static: a client certificate, a bearer token, basic auth.
// Why not KubeConfig itself: importing client-node loads about a thousand modules
// (about 2 s of CPU, twice that through tsx), and every process that only needs a
// server address and a certificate paid it at start: each gateway, `warren up`,
// and each test process. Users with `exec` or `auth-provider` still need
// client-node's authenticators: needsKubeClient() says so, and the caller imports it then.
import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { parse } from 'yaml';

export interface KubeconfigCluster {
  name: string;
  server: string;
  caData?: string;
  caFile?: string;
  skipTLSVerify: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
}

export interface KubeconfigUser {
  name: string;
  certData?: string;
  certFile?: string;
  keyData?: string;
  keyFile?: string;
  token?: string;
  username?: string;
  password?: string;
  impersonateUser?: string;
  exec?: unknown;
  authProvider?: unknown;
}

export interface KubeconfigContext {
  name: string;
  cluster: string;
  user?: string;
  namespace?: string;
}

export interface KubeconfigView {
  clusters: KubeconfigCluster[];
  users: KubeconfigUser[];
  contexts: KubeconfigContext[];
  currentContext?: string;
}

type Entry = Record<string, unknown> | undefined;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const present = (value: unknown): boolean => value !== undefined && value !== null && value !== false && value !== '';

// client-node drops empty fields the same way (`elt.user ? elt.user.x : null`, then `if (x)`).
function compact<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

function list(value: unknown): Entry[] {
  return Array.isArray(value) ? (value as Entry[]) : [];
}

function readCluster(elt: Entry, i: number): KubeconfigCluster {
  const cluster = elt?.cluster as Entry;
  if (!present(elt?.name)) throw new Error(`clusters[${i}].name is missing`);
  if (!cluster) throw new Error(`clusters[${i}].cluster is missing`);
  if (!present(cluster.server)) throw new Error(`clusters[${i}].cluster.server is missing`);
  return compact({
    name: String(elt!.name),
    server: String(cluster.server).replace(/\/$/, ''),
    caData: text(cluster['certificate-authority-data']),
    caFile: text(cluster['certificate-authority']),
    skipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: text(cluster['tls-server-name']),
    proxyUrl: text(cluster['proxy-url']),
  });
}

function readUser(elt: Entry, i: number): KubeconfigUser {
  if (!present(elt?.name)) throw new Error(`users[${i}].name is missing`);
  const user = (elt!.user ?? {}) as Record<string, unknown>;
  const tokenFile = text(user['token-file']);
  return compact({
    name: String(elt!.name),
    certData: text(user['client-certificate-data']),
    certFile: text(user['client-certificate']),
    keyData: text(user['client-key-data']),
    keyFile: text(user['client-key']),
    token: text(user.token) ?? (tokenFile ? readFileSync(tokenFile, 'utf8') : undefined),
    username: text(user.username),
    password: text(user.password),
    impersonateUser: text(user.as),
    exec: present(user.exec) ? user.exec : undefined,
    authProvider: present(user['auth-provider']) ? user['auth-provider'] : undefined,
  });
}

function readContext(elt: Entry, i: number): KubeconfigContext {
  const context = elt?.context as Entry;
  if (!present(elt?.name)) throw new Error(`contexts[${i}].name is missing`);
  if (!context) throw new Error(`contexts[${i}].context is missing`);
  if (!present(context.cluster)) throw new Error(`contexts[${i}].context.cluster is missing`);
  return compact({ name: String(elt!.name), cluster: String(context.cluster), user: text(context.user), namespace: text(context.namespace) });
}

/** Parses a kubeconfig (YAML or JSON); an entry without its name, cluster or server throws, as in client-node. */
export function parseKubeconfig(yaml: string): KubeconfigView {
  const obj = (parse(yaml) ?? {}) as Record<string, unknown>;
  const currentContext = text(obj['current-context']);
  return {
    clusters: list(obj.clusters).map(readCluster),
    users: list(obj.users).map(readUser),
    contexts: list(obj.contexts).map(readContext),
    ...(currentContext ? { currentContext } : {}),
  };
}

function currentContextOf(kc: KubeconfigView): KubeconfigContext | undefined {
  return kc.contexts.find((c) => c.name === kc.currentContext);
}

export function currentCluster(kc: KubeconfigView): KubeconfigCluster | undefined {
  const context = currentContextOf(kc);
  return context && kc.clusters.find((c) => c.name === context.cluster);
}

export function currentUser(kc: KubeconfigView): KubeconfigUser | undefined {
  const context = currentContextOf(kc);
  return context && kc.users.find((u) => u.name === context.user);
}

/** True when the current user's credential comes from an exec plugin or an auth provider (client-node's authenticators). */
export function needsKubeClient(kc: KubeconfigView): boolean {
  const user = currentUser(kc);
  return Boolean(user?.exec || user?.authProvider);
}

function bufferOf(file: string | undefined, data: string | undefined): Buffer | undefined {
  if (file) return readFileSync(file);
  if (data) return Buffer.from(data, 'base64');
  return undefined;
}

/**
 * What client-node's applyToHTTPSOptions puts in `opts` for a static user: TLS
 * material, Impersonate-User, a bearer token, basic auth (not its agent: callers
 * bring their own). Like client-node, nothing at all without a current user.
 */
export function applyStaticOptions(kc: KubeconfigView, opts: RequestOptions): void {
  if (needsKubeClient(kc)) throw new Error('applyStaticOptions: the current user needs client-node (exec or auth-provider)');
  const cluster = currentCluster(kc);
  const user = currentUser(kc);
  if (!user) return;
  if (cluster?.skipTLSVerify) opts.rejectUnauthorized = false;
  if (cluster?.tlsServerName) opts.servername = cluster.tlsServerName;
  const ca = cluster && bufferOf(cluster.caFile, cluster.caData);
  if (ca) opts.ca = ca;
  const cert = bufferOf(user.certFile, user.certData);
  if (cert) opts.cert = cert;
  const key = bufferOf(user.keyFile, user.keyData);
  if (key) opts.key = key;
  const headers = (opts.headers ??= {}) as Record<string, string>;
  if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
  if (user.token) headers.Authorization = `Bearer ${user.token}`;
  if (user.username) opts.auth = `${user.username}:${user.password}`;
}
