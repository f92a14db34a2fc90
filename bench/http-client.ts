// A minimal HTTP(S) client for measuring servers, not for talking Kubernetes:
// raw node:https with a keep-alive agent, so the client adds microseconds, not
// the milliseconds that @kubernetes/client-node spends per request.
import http from 'node:http';
import https from 'node:https';
import { parse } from 'yaml';

export interface Reply {
  status: number;
  body: string;
  bytes: number;
}

export interface BenchClient {
  readonly base: string;
  /** contentType defaults to application/json (a PATCH names its patch type). */
  request(method: string, path: string, body?: string, contentType?: string): Promise<Reply>;
  /** GET that counts the body's bytes and drops them: the client does no work a server should be charged for. */
  drain(path: string): Promise<Reply>;
  /** Opens a streaming GET; `onChunk` receives raw text as it arrives. Resolves once headers are in. */
  stream(path: string, onChunk: (text: string) => void): Promise<{ status: number; close(): void }>;
  close(): void;
}

interface Transport {
  request: typeof https.request;
  agent: http.Agent;
}

function makeClient(base: string, transport: Transport, extraHeaders: Record<string, string> = {}): BenchClient {
  const url = new URL(base);
  const common = { hostname: url.hostname, port: url.port, agent: transport.agent };
  const send = (method: string, path: string, body: string | undefined, keep: boolean, contentType = 'application/json'): Promise<Reply> => new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Accept: 'application/json', ...extraHeaders };
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const req = transport.request({ ...common, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keep) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: keep ? Buffer.concat(chunks).toString('utf8') : '', bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  return {
    base,
    request(method, path, body, contentType) {
      return send(method, path, body, true, contentType);
    },
    drain(path) {
      return send('GET', path, undefined, false);
    },
    stream(path, onChunk) {
      return new Promise((resolve, reject) => {
        // A watch holds its socket for its whole life: give it its own, outside the pool.
        const req = transport.request({ ...common, agent: undefined, method: 'GET', path, headers: { Accept: 'application/json', ...extraHeaders } }, (res) => {
          res.setEncoding('utf8');
          res.on('data', onChunk);
          res.on('error', () => undefined);
          resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
        });
        req.on('error', reject);
        req.end();
      });
    },
    close() {
      transport.agent.destroy();
    },
  };
}

interface KubeconfigDoc {
  clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
  users?: { user?: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
}

const b64 = (s: string | undefined): string => Buffer.from(s ?? '', 'base64').toString('utf8');

/** A client with the first cluster and user of a kubeconfig (client-certificate auth). */
export function clientFromKubeconfig(kubeconfigYaml: string, maxSockets: number): BenchClient {
  const doc = parse(kubeconfigYaml) as KubeconfigDoc;
  const cluster = doc.clusters?.[0]?.cluster;
  const user = doc.users?.[0]?.user;
  if (!cluster?.server || !user?.['client-certificate-data']) throw new Error('kubeconfig: expected a cluster server and a client certificate');
  return tlsClient(cluster.server, {
    ca: b64(cluster['certificate-authority-data']),
    cert: b64(user['client-certificate-data']),
    key: b64(user['client-key-data']),
  }, maxSockets);
}

/** A client for an HTTPS server that trusts `ca`, optionally presenting a client certificate. */
export function tlsClient(base: string, tls: { ca: string; cert?: string; key?: string }, maxSockets: number): BenchClient {
  const agent = new https.Agent({ keepAlive: true, maxSockets, ...tls });
  const request = ((options: https.RequestOptions, cb: (res: http.IncomingMessage) => void) =>
    https.request({ ...tls, ...options, agent: options.agent ?? false }, cb)) as typeof https.request;
  return makeClient(base, { request, agent });
}

/**
 * A client with a bearer token, for a server whose certificate nothing here can verify
 * (a real kube-apiserver's self-signed one, as start-kube.sh's kubeconfig says).
 */
export function tokenClient(base: string, token: string, maxSockets: number): BenchClient {
  const tls = { rejectUnauthorized: false };
  const agent = new https.Agent({ keepAlive: true, maxSockets, ...tls });
  const request = ((options: https.RequestOptions, cb: (res: http.IncomingMessage) => void) =>
    https.request({ ...tls, ...options, agent: options.agent ?? false }, cb)) as typeof https.request;
  return makeClient(base, { request, agent }, { Authorization: `Bearer ${token}` });
}

/** A client for a plain-HTTP server (the floor). */
export function plainClient(base: string, maxSockets: number): BenchClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const request = ((options: http.RequestOptions, cb: (res: http.IncomingMessage) => void) =>
    http.request({ ...options, agent: options.agent ?? false }, cb)) as typeof https.request;
  return makeClient(base, { request, agent });
}
