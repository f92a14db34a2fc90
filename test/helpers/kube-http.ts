// A raw HTTPS client for the contract suite: it speaks to whatever apiserver the
// kubeconfig names, so the same assertions run against the embedded server and a
// real kube-apiserver. Typed clients hide status codes and bodies; these tests
// need to see exactly what went over the wire.
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ClientRequest } from 'node:http';
import { applyStaticOptions, currentCluster, needsKubeClient, parseKubeconfig, type KubeconfigCluster } from '../../src/kube/kubeconfig-view.ts';

/** The part of client-node's KubeConfig that tests use, without importing client-node for static credentials. */
export interface KubeconfigAccess {
  getCurrentCluster(): KubeconfigCluster | null;
  applyToHTTPSOptions(opts: https.RequestOptions): Promise<void>;
}

function kubeconfigAccess(yaml: string): KubeconfigAccess {
  const view = parseKubeconfig(yaml);
  return {
    getCurrentCluster: () => currentCluster(view) ?? null,
    async applyToHTTPSOptions(opts) {
      if (!needsKubeClient(view)) return applyStaticOptions(view, opts);
      // An exec plugin or auth provider (a real cluster's kubeconfig): client-node's authenticators.
      const { KubeConfig } = await import('@kubernetes/client-node');
      const kc = new KubeConfig();
      kc.loadFromString(yaml);
      await kc.applyToHTTPSOptions(opts);
    },
  };
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is when a string or Buffer; JSON-encoded otherwise. */
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** A keep-alive agent whose connections the request may reuse (default: a connection of its own, closed after it). */
  agent?: https.Agent;
}

export interface HttpResult<T = any> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the response is JSON, otherwise undefined. */
  body: T;
  text: string;
}

export class KubeHttp {
  readonly kubeConfig: KubeconfigAccess;
  readonly server: string;

  constructor(kubeconfigYaml: string) {
    this.kubeConfig = kubeconfigAccess(kubeconfigYaml);
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.server = cluster.server.replace(/\/$/, '');
  }

  /** The options of an https.request to `path` with this kubeconfig's credentials (for requests sent by hand: a body in parts). */
  async httpsOptions(method: string, path: string, headers: Record<string, string | number> = {}): Promise<https.RequestOptions> {
    const url = new URL(this.server + path);
    const opts: https.RequestOptions = {
      method,
      hostname: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      headers: { Accept: 'application/json', ...headers },
      // Keep-alive sockets would outlive the test and hold the event loop open.
      agent: false,
    };
    await this.kubeConfig.applyToHTTPSOptions(opts);
    return opts;
  }

  /** Opens a request and resolves with the live response, for streams (watch, logs). */
  async open(method: string, path: string, options: RequestOptions = {}): Promise<{ req: ClientRequest; res: IncomingMessage }> {
    const opts = await this.httpsOptions(method, path, options.headers);
    if (options.agent) opts.agent = options.agent;
    let payload: string | Buffer | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
      (opts.headers as Record<string, string | number>)['Content-Type'] = options.contentType ?? 'application/json';
      (opts.headers as Record<string, string | number>)['Content-Length'] = Buffer.byteLength(payload);
    }
    return await new Promise((resolve, reject) => {
      const req = https.request(opts, (res) => resolve({ req, res }));
      req.on('error', reject);
      if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`${method} ${path}: no response in ${options.timeoutMs}ms`)));
      req.end(payload);
    });
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const { res } = await this.open(method, path, { timeoutMs: 30_000, ...options });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any;
    if (/json/.test(String(res.headers['content-type'] ?? ''))) {
      try { body = JSON.parse(text); } catch { body = undefined; }
    }
    return { status: res.statusCode ?? 0, headers: res.headers, body, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('GET', path, headers ? { ...options, headers } : options);
  }
  post<T = any>(path: string, body: unknown, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body: unknown, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, contentType: string, body: unknown, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('PATCH', path, { ...options, body, contentType });
  }
  delete<T = any>(path: string, body?: unknown): Promise<HttpResult<T>> {
    return this.request<T>('DELETE', path, body === undefined ? {} : { body });
  }
}

export const PATCH = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;
