// An HTTPS fault proxy in front of a member apiserver. Unlike fault-relay.ts
// (raw TCP, TLS passed through), it terminates TLS with its own CA, so it can
// see each request and answer for the member: a 500 Status to writes, a delay
// before each response, or no listener at all (connection refused). Warren
// reaches the member only through `kubeconfig` (a bearer token for the proxy);
// the proxy reaches the member with the member's own admin credentials.
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import { parse } from 'yaml';
import { createCa, issueCertificate } from '../../src/pki/certificates.ts';
import { buildKubeconfig } from '../../src/pki/kubeconfig.ts';

export type ProxyMode =
  | { kind: 'healthy' }
  /** Every write (POST/PUT/PATCH/DELETE) gets a 500 InternalError Status naming the request path; reads pass. */
  | { kind: 'fail-writes' }
  /** Each matching response is held `ms` before its head is sent (all requests when `only` is absent). */
  | { kind: 'slow'; ms: number; only?: (method: string, path: string) => boolean }
  /** The listener is closed and open sockets destroyed: new connections are refused. */
  | { kind: 'down' };

export interface MemberFaultProxy {
  port: number;
  /** A kubeconfig that reaches the member through the proxy (register the member with it). */
  kubeconfig: string;
  set(mode: ProxyMode): Promise<void>;
  /** Requests answered with an injected 500 so far (tests check the fault was really hit). */
  injected(): number;
  close(): Promise<void>;
}

interface MemberTarget { host: string; port: number; ca: Buffer; cert: Buffer; key: Buffer }

function targetOf(memberKubeconfig: string): MemberTarget {
  const doc = parse(memberKubeconfig) as {
    clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>;
    users: Array<{ user: { 'client-certificate-data': string; 'client-key-data': string } }>;
  };
  const cluster = doc.clusters[0]!.cluster;
  const user = doc.users[0]!.user;
  const url = new URL(cluster.server);
  const b64 = (s: string): Buffer => Buffer.from(s, 'base64');
  return { host: url.hostname, port: Number(url.port), ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function startMemberFaultProxy(memberKubeconfig: string, clusterName: string): Promise<MemberFaultProxy> {
  const target = targetOf(memberKubeconfig);
  const agent = new https.Agent({ keepAlive: true, ca: target.ca, cert: target.cert, key: target.key });
  const ca = await createCa(`${clusterName}-fault-proxy-ca`);
  const serving = await issueCertificate({ ca, commonName: `${clusterName}-fault-proxy`, ips: ['127.0.0.1'], dnsNames: ['localhost'], lifetimeMs: 24 * 3600_000 });
  const token = `fault-proxy-${clusterName}`;
  let mode: ProxyMode = { kind: 'healthy' };
  let injected = 0;
  const sockets = new Set<net.Socket>();

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const headers = { ...req.headers };
    delete headers.authorization; // the member authenticates the proxy by its client certificate
    delete headers.host;
    const out = https.request({ host: target.host, port: target.port, method: req.method ?? 'GET', path: req.url ?? '/', headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      // A watch the client gave up on must not stay open on the member.
      res.on('close', () => answer.destroy());
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401, message: 'Unauthorized' }));
      return;
    }
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const current = mode;
    if (current.kind === 'fail-writes' && WRITES.has(method)) {
      injected++;
      req.resume();
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'InternalError', code: 500,
        message: `Internal error occurred: injected fault on ${method} ${path.split('?')[0]}`,
      }));
      return;
    }
    if (current.kind === 'slow' && (current.only?.(method, path) ?? true)) {
      setTimeout(() => forward(req, res), current.ms);
      return;
    }
    forward(req, res);
  };

  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, handle);
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const listening = (): boolean => server.listening;

  const stopListening = (): Promise<void> => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    if (!listening()) return resolve();
    server.close(() => resolve());
  });
  const startListening = (): Promise<void> => new Promise((resolve, reject) => {
    if (listening()) return resolve();
    server.once('error', reject);
    // The same port: the member's registration (its kubeconfig) does not change across the outage.
    server.listen(port, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });

  return {
    port,
    kubeconfig: buildKubeconfig({ clusterName, server: `https://127.0.0.1:${port}`, caCertPem: ca.certPem, userName: `${clusterName}-proxy`, token }),
    async set(next) {
      mode = next;
      if (next.kind === 'down') await stopListening();
      else await startListening();
    },
    injected: () => injected,
    async close() {
      await stopListening();
      agent.destroy();
    },
  };
}
