// A small HTTPS upstream under our control, for what the embedded apiserver
// cannot show: the headers the proxy sends, an upstream that never answers,
// a request the client abandons, and protocol upgrades (exec/attach/port-forward
// are not implemented by the embedded server).
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createCa, issueCertificate } from '../../../src/pki/certificates.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';

export interface EchoUpstream {
  upstream: Upstream;
  /** Requests seen, in order, with the headers as received. */
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** Resolves when the next request on `path` is closed by the proxy. */
  closedOnce(path: string): Promise<void>;
  stop(): Promise<void>;
}

function upgradeHandler(req: IncomingMessage, socket: Duplex, head: Buffer): void {
  if (req.url?.startsWith('/refuse')) {
    const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, message: 'pods "p" is forbidden' });
    socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    return;
  }
  // Answer in the requested protocol, naming the stream protocol as kube-apiserver does for SPDY.
  const protocol = req.headers['x-stream-protocol-version'] ?? req.headers['sec-websocket-protocol'] ?? '';
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${req.headers.upgrade ?? ''}\r\nX-Stream-Protocol-Version: ${protocol}\r\nX-Seen-Authorization: ${req.headers.authorization ?? 'none'}\r\n\r\n`);
  if (head.length > 0) socket.write(head);
  socket.pipe(socket as NodeJS.WritableStream); // echo every byte back
}

export async function startEchoUpstream(): Promise<EchoUpstream> {
  const ca = await createCa('echo-upstream-ca');
  const serving = await issueCertificate({ ca, commonName: 'echo', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 });
  const client = await issueCertificate({ ca, commonName: 'warren', lifetimeMs: 3_600_000 });
  const seen: EchoUpstream['seen'] = [];
  const closeWaiters = new Map<string, () => void>();
  const sockets = new Set<Socket>();
  // Requests answered per connection: /drop-reused closes a kept-alive connection on its second request unanswered.
  const served = new WeakMap<Socket, number>();
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const count = served.get(req.socket) ?? 0;
    served.set(req.socket, count + 1);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path === '/hang') return; // never answers
      if (path === '/drop-reused' && count > 0) { req.socket.destroy(); return; } // the keep-alive race, made certain
      if (path === '/stream') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.flushHeaders();
        res.on('close', () => closeWaiters.get(path)?.());
        return; // holds the stream open, like a watch with no events
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Connection': 'keep-alive, X-Hop', 'Keep-Alive': 'timeout=5', 'X-Hop': 'listed in Connection', 'X-Kept': 'yes' });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
    });
  });
  server.on('upgrade', upgradeHandler);
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const upstream: Upstream = {
    server: `https://127.0.0.1:${port}`,
    requestOptions: () => ({ ca: ca.certPem, cert: client.certPem, key: client.keyPem }),
    request: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    close: () => undefined,
  };
  return {
    upstream,
    seen,
    closedOnce: (path) => new Promise((resolve) => closeWaiters.set(path, resolve)),
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
