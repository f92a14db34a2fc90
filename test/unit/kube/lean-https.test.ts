// The controllers' request() over the lean connection pool (ADR 0041), against
// a real node:https server on loopback: answers framed either way arrive whole,
// connections are reused and bounded, a request past its deadline is a Timeout,
// an idle connection is closed by the client first (ADR 0036), and a reused
// connection that the server drops before answering is sent once more for a
// read and never for a write. Servers are stopped whatever the outcome.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createCa, issueCertificate, type IssuedCertificate } from '../../../src/pki/certificates.ts';
import { createUpstream, TIMEOUT_MESSAGE, UNAVAILABLE_MESSAGE } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { ApiError } from '../../../src/core/api-error.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Server { url: string; connections: number; resumed: number; open: number; handler: Handler; stop(): Promise<void> }

async function startServer(serving: IssuedCertificate): Promise<Server> {
  const sockets = new Set<TLSSocket>();
  let connections = 0;
  let resumed = 0;
  const state: Server = {
    url: '',
    get connections() { return connections; },
    get resumed() { return resumed; },
    get open() { return sockets.size; },
    handler: (_req, res) => res.end('{}'),
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => state.handler(req, res, Buffer.concat(chunks).toString()));
  });
  server.keepAliveTimeout = 60_000;
  server.on('secureConnection', (socket: TLSSocket) => {
    connections++;
    if (socket.isSessionReused()) resumed++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function kubeconfigFor(url: string, ca: IssuedCertificate): string {
  return [
    'apiVersion: v1', 'kind: Config', 'current-context: c',
    'clusters:', '- name: c', '  cluster:', `    server: ${url}`, `    certificate-authority-data: ${Buffer.from(ca.certPem).toString('base64')}`,
    'users:', '- name: u', '  user:', '    token: secret-token',
    'contexts:', '- name: c', '  context: {cluster: c, user: u}',
  ].join('\n');
}

const until = async (check: () => boolean, ms: number): Promise<boolean> => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe('upstream request() over the lean pool', () => {
  let ca: IssuedCertificate;
  let server: Server;
  const clients: Upstream[] = [];
  const client = (options: { maxSockets?: number; timeoutMs?: number } = {}): Upstream => {
    const c = createUpstream({ yaml: kubeconfigFor(server.url, ca) }, options);
    clients.push(c);
    return c;
  };

  before(async () => {
    ca = await createCa('lean-test-ca');
    server = await startServer(await issueCertificate({ ca, commonName: 'up', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 }));
  });
  after(async () => {
    for (const c of clients) c.close();
    await server.stop();
  });

  it('sends method, path, headers and body as node:https did, and reads a JSON answer', async () => {
    let seen: { method?: string; url?: string; auth?: string; type?: string; accept?: string; host?: string; body?: string } = {};
    server.handler = (req, res, body) => {
      seen = { method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], accept: req.headers.accept, host: req.headers.host, body };
      res.setHeader('Content-Type', 'application/json');
      res.statusCode = 201;
      res.end(JSON.stringify({ kind: 'Thing', metadata: { name: 'ünïcode' } }));
    };
    const res = await client().request<{ metadata: { name: string } }>('PATCH', '/apis/x/v1/things/a?fieldManager=m', { spec: { a: 'ü' } }, { 'Content-Type': 'application/apply-patch+yaml' });
    assert.equal(res.status, 201);
    assert.equal(res.body.metadata.name, 'ünïcode');
    assert.deepEqual(seen, { method: 'PATCH', url: '/apis/x/v1/things/a?fieldManager=m', auth: 'Bearer secret-token', type: 'application/apply-patch+yaml', accept: 'application/json', host: new URL(server.url).host, body: '{"spec":{"a":"ü"}}' });
  });

  it('reads a chunked answer of many writes whole, and a Status error as an answer', async () => {
    const items = Array.from({ length: 400 }, (_, i) => ({ name: `item-${i}`, pad: 'x'.repeat(100) }));
    server.handler = (req, res) => {
      if (req.url === '/missing') {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound' }));
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      const text = JSON.stringify({ items });
      for (let at = 0; at < text.length; at += 1000) res.write(text.slice(at, at + 1000));
      res.end();
    };
    const up = client();
    const res = await up.request<{ items: unknown[] }>('GET', '/list');
    assert.deepEqual(res.body.items, items);
    const missing = await up.request<{ reason: string }>('GET', '/missing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.reason, 'NotFound');
  });

  it('reuses a connection for requests one after another, and opens at most maxSockets at once', async () => {
    server.handler = (_req, res) => setTimeout(() => res.end('{}'), 30);
    const before = server.connections;
    const up = client({ maxSockets: 3 });
    for (let i = 0; i < 5; i++) assert.equal((await up.request('GET', '/one')).status, 200);
    assert.equal(server.connections - before, 1);
    const answers = await Promise.all(Array.from({ length: 12 }, () => up.request('GET', '/many')));
    assert.ok(answers.every((a) => a.status === 200));
    assert.ok(server.connections - before <= 3, `${server.connections - before} connections`);
  });

  it('uses its idle connections in turn, so a steady flow keeps them all open and the next peak opens none (issue 18)', async () => {
    const ports: Array<number | undefined> = [];
    server.handler = (req, res) => {
      ports.push(req.socket.remotePort);
      setTimeout(() => res.end('{}'), 30);
    };
    const up = client({ maxSockets: 4 });
    const peak = async (): Promise<void> => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => up.request('GET', '/peak')));
      assert.ok(answers.every((a) => a.status === 200));
    };
    await peak();
    const opened = server.connections;
    ports.length = 0;
    // One at a time: the most recently used connection alone would serve them all, and the other three idle out.
    for (let i = 0; i < 8; i++) assert.equal((await up.request('GET', '/steady')).status, 200);
    assert.equal(new Set(ports).size, 4, `the steady requests went over ${new Set(ports).size} of the 4 connections`);
    await peak();
    assert.equal(server.connections, opened, 'the next peak found its connections open');
  });

  it('a new connection resumes the TLS session an earlier one was given, as https.Agent does', async () => {
    server.handler = (_req, res) => setTimeout(() => res.end('{}'), 30);
    const up = client({ maxSockets: 4 });
    await up.request('GET', '/first');
    const [connections, resumed] = [server.connections, server.resumed];
    await Promise.all(Array.from({ length: 4 }, () => up.request('GET', '/more')));
    assert.ok(server.connections > connections, 'more connections were opened');
    assert.equal(server.resumed - resumed, server.connections - connections, 'each of them resumed the session');
  });

  it('a request past its deadline is a Timeout, and its connection is not used again', async () => {
    server.handler = (req, res) => {
      if (req.url === '/slow') return; // never answered
      res.end('{}');
    };
    const up = client({ timeoutMs: 200 });
    await assert.rejects(up.request('GET', '/slow'), (err: unknown) => err instanceof ApiError && err.reason === 'Timeout' && err.message === TIMEOUT_MESSAGE);
    assert.equal((await up.request('GET', '/fast')).status, 200);
  });

  it('closes a connection idle for longer than its idle lifetime, before the server does', async () => {
    server.handler = (_req, res) => res.end('{}');
    const up = client();
    await up.request('GET', '/idle');
    const openAfterRequest = server.open;
    assert.ok(openAfterRequest >= 1);
    // 4 s idle lifetime (ADR 0036), checked every second; the server keeps connections 60 s.
    assert.ok(await until(() => server.open < openAfterRequest, 8_000), 'the client closed its idle connection');
  });

  it('a reused connection dropped before any answer: a GET goes again on a fresh one, a POST is unavailable', async () => {
    let drop = false;
    server.handler = (req, res) => {
      if (drop) {
        drop = false;
        req.socket.destroy();
        return;
      }
      res.end('{}');
    };
    const up = client({ maxSockets: 1 });
    await up.request('GET', '/warm');
    drop = true;
    assert.equal((await up.request('GET', '/again')).status, 200);
    drop = true;
    await assert.rejects(up.request('POST', '/create', { a: 1 }), (err: unknown) => err instanceof ApiError && err.message === UNAVAILABLE_MESSAGE);
    assert.equal((await up.request('GET', '/after')).status, 200);
  });

  it('refuses a path or header that would end a line early, as node:https does', async () => {
    const up = client();
    await assert.rejects(up.request('GET', '/a b'), TypeError);
    await assert.rejects(up.request('GET', '/a', undefined, { 'X-Evil': 'a\r\nX-Injected: 1' }), TypeError);
  });

  it('a server that is not there is unavailable, with no address in the message', async () => {
    const gone = createUpstream({ yaml: kubeconfigFor('https://127.0.0.1:1', ca) });
    clients.push(gone);
    await assert.rejects(gone.request('GET', '/x'), (err: unknown) => err instanceof ApiError && err.message === UNAVAILABLE_MESSAGE);
  });
});
