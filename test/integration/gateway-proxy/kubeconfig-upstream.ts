// An Upstream for these tests, from a kubeconfig's current cluster and user
// (client certificate or bearer token): the embedded apiserver's admin
// kubeconfig, or any other. Real HTTPS; the proxy only needs server and requestOptions().
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { parse } from 'yaml';
import type { Upstream, UpstreamResponse } from '../../../src/kube/upstream.ts';

const fromB64 = (value: unknown): string | undefined => (typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined);

export function upstreamFromKubeconfig(kubeconfig: string): Upstream {
  const config = parse(kubeconfig) as any;
  const context = config.contexts.find((c: any) => c.name === config['current-context']).context;
  const cluster = config.clusters.find((c: any) => c.name === context.cluster).cluster;
  const user = config.users.find((u: any) => u.name === context.user).user;
  const server = String(cluster.server).replace(/\/$/, '');
  const base: https.RequestOptions = {
    ca: fromB64(cluster['certificate-authority-data']),
    cert: fromB64(user['client-certificate-data']),
    key: fromB64(user['client-key-data']),
    headers: user.token ? { Authorization: `Bearer ${user.token}` } : {},
  };
  const url = new URL(server);
  const open = (method: string, path: string, headers: Record<string, string>): https.RequestOptions => ({
    ...base, method, hostname: url.hostname, port: url.port, path, agent: false,
    headers: { ...base.headers, Accept: 'application/json', ...headers },
  });
  return {
    server,
    requestOptions: () => ({ ...base, headers: { ...base.headers } }),
    async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<UpstreamResponse<T>> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = https.request(open(method, path, payload ? { 'Content-Type': 'application/json', ...headers } : headers), resolve);
        req.on('error', reject);
        req.end(payload);
      });
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      return { status: res.statusCode ?? 0, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
    },
    stream(path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
      return new Promise((resolve, reject) => https.request(open('GET', path, headers), resolve).on('error', reject).end());
    },
    close: () => undefined,
  };
}
