// A keep-alive HTTPS client for load: one agent per simulated client, so a
// client's requests reuse its connection as kubectl's and client-go's do (and
// as a throttled connection must be, to be held). Every outcome is recorded:
// a status code, or the transport error ('reset', 'timeout', ...) that a
// load test must never see.
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';

export interface LoadReply {
  /** HTTP status, or 0 for a transport error (see `error`). */
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  error?: string;
}

export interface LoadClient {
  request(method: string, path: string, body?: unknown, contentType?: string): Promise<LoadReply>;
  /** Opens a watch, reads for `ms`, then closes it; resolves with the status and the events seen. */
  watchFor(path: string, ms: number): Promise<LoadReply & { events: number }>;
  close(): void;
}

const TIMEOUT_MS = 30_000;

export async function loadClientFromKubeconfig(yaml: string, maxSockets = 2): Promise<LoadClient> {
  const kc = new KubeConfig();
  kc.loadFromString(yaml);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const server = new URL(cluster.server);
  const base = server.pathname.replace(/\/$/, '');
  const tls: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const agent = new https.Agent({ keepAlive: true, maxSockets, ...(tls.ca ? { ca: tls.ca } : {}), ...(tls.cert ? { cert: tls.cert } : {}), ...(tls.key ? { key: tls.key } : {}) });
  const common = { hostname: server.hostname, port: server.port, agent };

  const send = (method: string, path: string, body: unknown, contentType: string | undefined, onResponse?: (res: import('node:http').IncomingMessage, done: (r: LoadReply) => void) => void): Promise<LoadReply> =>
    new Promise((resolve) => {
      let settled = false;
      const done = (r: LoadReply): void => {
        if (settled) return;
        settled = true;
        resolve(r);
      };
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string | number> = { Accept: 'application/json' };
      if (payload !== undefined) {
        headers['Content-Type'] = contentType ?? 'application/json';
        headers['Content-Length'] = Buffer.byteLength(payload);
      }
      const req = https.request({ ...common, method, path: base + path, headers }, (res) => {
        if (onResponse) return onResponse(res, done);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => done({ status: 0, headers: {}, body: '', error: transportError(err) }));
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (err) => done({ status: 0, headers: {}, body: '', error: transportError(err) }));
      req.end(payload);
    });

  return {
    request: (method, path, body, contentType) => send(method, path, body, contentType),
    watchFor(path, ms) {
      let events = 0;
      return send('GET', path, undefined, undefined, (res, done) => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          return;
        }
        res.on('data', (c: Buffer) => { events += c.toString('utf8').split('\n').length - 1; });
        const timer = setTimeout(() => {
          // Closing our side ends the watch; the agent opens a new socket next time.
          res.destroy();
          done({ status: 200, headers: res.headers, body: '' });
        }, ms);
        res.on('end', () => {
          clearTimeout(timer);
          done({ status: 200, headers: res.headers, body: '' });
        });
        res.on('error', () => undefined);
      }).then((r) => ({ ...r, events }));
    },
    close: () => agent.destroy(),
  };
}

function transportError(err: Error & { code?: string }): string {
  return err.code ?? err.message;
}
