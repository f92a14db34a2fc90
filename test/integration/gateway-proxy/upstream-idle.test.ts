// The keep-alive race on the upstream leg (issue 18, session 11's 503): when the
// upstream closes an idle pooled connection just as the gateway sends a write on
// it, the write fails and cannot be sent again. The gateway must end idle
// connections first. The upstream here is a plain Node HTTPS server with Node's
// default keep-alive timeout (5 s), the shortest a Node upstream has unless told.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createCa, issueCertificate } from '../../../src/pki/certificates.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { upstreamConnection, type UpstreamConnection } from '../../../src/gateway/proxy/upstream-connection.ts';
import { UPSTREAM_IDLE_SOCKET_MS } from '../../../src/kube/upstream-idle.ts';
import { eventually } from '../../helpers/poll.ts';
import { startProxyFront } from './proxy-front.ts';

interface Seen { socket: Socket; closedByPeer: boolean; closed: boolean }

describe('pooled upstream connections', () => {
  let server: https.Server;
  let upstream: Upstream;
  const connections: Seen[] = [];

  before(async () => {
    const ca = await createCa('idle-upstream-ca');
    const serving = await issueCertificate({ ca, commonName: 'upstream', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 });
    const client = await issueCertificate({ ca, commonName: 'warren', lifetimeMs: 3_600_000 });
    server = https.createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      req.resume();
      req.on('end', () => {
        const delay = Number(new URL(req.url ?? '/', 'https://x').searchParams.get('delayMs') ?? 0);
        if (req.url?.startsWith('/watch')) {
          // A quiet watch: the head at once, then an event after each pause.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          setTimeout(() => res.write('{"type":"ADDED"}\n'), delay);
          setTimeout(() => res.end('{"type":"MODIFIED"}\n'), 2 * delay);
          return;
        }
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), delay);
      });
    });
    server.on('secureConnection', (socket: Socket) => {
      const seen: Seen = { socket, closedByPeer: false, closed: false };
      connections.push(seen);
      // 'end' is the peer's FIN: the gateway closed first. A server that times a socket out destroys it without one.
      socket.on('end', () => { seen.closedByPeer = true; });
      socket.on('close', () => { seen.closed = true; });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    upstream = {
      server: `https://127.0.0.1:${port}`,
      requestOptions: () => ({ ca: ca.certPem, cert: client.certPem, key: client.keyPem }),
      request: () => Promise.reject(new Error('not used')),
      stream: () => Promise.reject(new Error('not used')),
      close: () => undefined,
    };
  });
  after(async () => {
    for (const c of connections) c.socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (connection: UpstreamConnection, path: string): Promise<IncomingMessage> => new Promise((resolve, reject) => {
    const req = https.request({ agent: connection.agent, host: connection.hostname, port: connection.port, method: 'POST', path, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    req.on('error', reject);
    req.end('{}');
  });

  /** A connection to the upstream for one test, its pools closed afterwards whatever happens. */
  const withConnection = async (options: { idleSocketMs?: number }, use: (connection: UpstreamConnection) => Promise<void>): Promise<void> => {
    const connection = upstreamConnection(upstream, options);
    try {
      await use(connection);
    } finally {
      connection.agent.destroy();
      connection.streamAgent.destroy();
    }
  };

  it('stay idle for less than a Node upstream\'s default keep-alive', () => {
    assert.ok(UPSTREAM_IDLE_SOCKET_MS < 5_000, `idle lifetime ${UPSTREAM_IDLE_SOCKET_MS} ms is not below Node's 5 s`);
    assert.equal(server.keepAliveTimeout, 5_000, 'the upstream here keeps Node\'s default');
  });

  it('are closed by the gateway, not by the upstream, once idle (default lifetime)', () => withConnection({}, async (connection) => {
    const before = connections.length;
    assert.equal((await send(connection, '/first')).statusCode, 200);
    const seen = connections[before];
    assert.ok(seen, 'the request opened a connection');
    await eventually(async () => seen.closed, 'the idle pooled connection to close', { timeoutMs: 60_000, intervalMs: 100 });
    assert.equal(seen.closedByPeer, true, 'the upstream timed the connection out before the gateway closed it (the race that gave writes a 503)');
  }));

  it('keep a watch on the stream pool whose events are further apart than the idle lifetime', () => withConnection({ idleSocketMs: 50 }, async (connection) => {
    const text = await new Promise<string>((resolve, reject) => {
      const req = https.request({ agent: connection.streamAgent, host: connection.hostname, port: connection.port, method: 'GET', path: '/watch?delayMs=300' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { body += c; });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(text, '{"type":"ADDED"}\n{"type":"MODIFIED"}\n');
  }));

  it('are not cut while an answer takes longer than the idle lifetime', () => withConnection({ idleSocketMs: 50 }, async (connection) => {
    const res = await send(connection, '/slow?delayMs=400');
    assert.equal(res.statusCode, 200);
    // And the socket is still reused afterwards only until it idles out: the next request after that is a fresh one.
    const before = connections.length;
    await eventually(async () => connections.slice(0, before).every((c) => c.closed), 'the idle connection to close', { timeoutMs: 60_000, intervalMs: 50 });
    assert.equal((await send(connection, '/after-idle')).statusCode, 200);
    assert.equal(connections.length, before + 1, 'the request after the idle lifetime used a new connection');
  }));

  // A Node upstream told to close idle connections after 2 s says so (Keep-Alive: timeout=2); the pool must
  // close them after 1 s (Node's rule: the hint less a second), not after its own 4 s, on both proxy paths.
  // At 1 s (timeout=1) a connection is not pooled at all.
  for (const seconds of [2, 1]) {
    it(`follow an upstream's shorter Keep-Alive hint (timeout=${seconds}) through the proxy, though the header is stripped for the client`, async () => {
      server.keepAliveTimeout = seconds * 1000;
      const front = await startProxyFront(upstream);
      try {
        for (const mode of ['json', 'piped']) {
          const before = connections.length;
          const answer = await fetch(`${front.url}/hint-${mode}`, { method: 'POST', headers: { 'x-test-mode': mode, 'content-type': 'application/json' }, body: '{}' });
          assert.equal(answer.status, 200);
          // The front's own HTTP server sends its own hint (timeout=5); the upstream's is not passed on.
          assert.notEqual(answer.headers.get('keep-alive'), `timeout=${seconds}`, 'the upstream\'s hop-by-hop header is still not passed to the client');
          await answer.arrayBuffer();
          const seen = connections[before];
          assert.ok(seen, `the ${mode} request opened a connection`);
          await eventually(async () => seen.closed, 'the idle pooled connection to close', { timeoutMs: 60_000, intervalMs: 50 });
          assert.equal(seen.closedByPeer, true, `${mode}: the upstream timed the connection out at its ${seconds} s before the gateway closed it`);
        }
      } finally {
        server.keepAliveTimeout = 5_000;
        await front.stop();
      }
    });
  }
});
