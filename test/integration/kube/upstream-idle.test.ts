// The keep-alive race on the controllers' client (ADR 0036, amended session 13): the engine's and
// onboarding's writes go through createUpstream's pool. When the upstream closes a pooled connection
// that sat idle past its limit just as a write is sent on it, the write fails and cannot be sent
// again. The upstream here plays that moment exactly: a request arriving on a connection idle for
// longer than its limit finds the connection closed (no answer, a reset), as when the upstream's FIN
// and the request cross. The client must close idle connections itself, before that limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCa, issueCertificate } from '../../../src/pki/certificates.ts';
import { buildKubeconfig } from '../../../src/pki/kubeconfig.ts';
import { createUpstream, UNAVAILABLE_MESSAGE } from '../../../src/kube/upstream-client.ts';
import { UPSTREAM_IDLE_SOCKET_MS } from '../../../src/kube/upstream-idle.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { ApiError } from '../../../src/core/api-error.ts';

interface Seen { socket: Socket; idleSince: number | undefined; closedByPeer: boolean; closed: boolean }

/** How long a connection may idle before this upstream drops the next request sent on it. */
const UPSTREAM_IDLE_LIMIT_MS = 300;

describe('createUpstream: pooled connections and an upstream that closes idle ones', { timeout: 120_000 }, () => {
  let server: https.Server;
  let kubeconfig: string;
  const connections: Seen[] = [];
  /** Requests the upstream received, by method and path, answered or not. */
  const received: string[] = [];

  before(async () => {
    const ca = await createCa('idle-client-ca');
    const serving = await issueCertificate({ ca, commonName: 'upstream', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 });
    const client = await issueCertificate({ ca, commonName: 'warren', lifetimeMs: 3_600_000 });
    server = https.createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      received.push(`${req.method} ${req.url}`);
      const seen = connections.find((c) => c.socket === req.socket);
      if (seen?.idleSince !== undefined && Date.now() - seen.idleSince >= UPSTREAM_IDLE_LIMIT_MS) {
        // The upstream had closed this idle connection as the request was sent: it is lost, unanswered.
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        const delay = Number(new URL(req.url ?? '/', 'https://x').searchParams.get('delayMs') ?? 0);
        setTimeout(() => res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end('{"kind":"ConfigMap"}'), delay);
        res.once('finish', () => { if (seen) seen.idleSince = Date.now(); });
      });
    });
    // The upstream's own keep-alive timer stays out of the way: the rule above is its idle limit.
    server.keepAliveTimeout = 600_000;
    server.on('secureConnection', (socket: Socket) => {
      const seen: Seen = { socket, idleSince: undefined, closedByPeer: false, closed: false };
      connections.push(seen);
      // 'end' is the peer's FIN: the client closed the connection first.
      socket.on('end', () => { seen.closedByPeer = true; });
      socket.on('close', () => { seen.closed = true; });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    kubeconfig = buildKubeconfig({ clusterName: 'up', server: `https://127.0.0.1:${port}`, caCertPem: ca.certPem, userName: 'warren', clientCertPem: client.certPem, clientKeyPem: client.keyPem });
  });
  after(async () => {
    for (const c of connections) c.socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A client for one test, its pools closed afterwards whatever happens. */
  const withClient = async (idleSocketMs: number | undefined, use: (upstream: Upstream) => Promise<void>): Promise<void> => {
    const upstream = createUpstream({ yaml: kubeconfig }, { timeoutMs: 30_000, ...(idleSocketMs === undefined ? {} : { idleSocketMs }) });
    try {
      await use(upstream);
    } finally {
      upstream.close();
    }
  };

  it('the default idle lifetime is below a Node upstream\'s 5 s default keep-alive (and is the gateway\'s)', () => {
    assert.ok(UPSTREAM_IDLE_SOCKET_MS < 5_000, `idle lifetime ${UPSTREAM_IDLE_SOCKET_MS} ms is not below Node's 5 s`);
  });

  it('a write after an idle spell goes on a fresh connection: the client closed the idle one first', () => withClient(UPSTREAM_IDLE_LIMIT_MS / 3, async (upstream) => {
    const first = connections.length;
    assert.equal((await upstream.request('POST', '/api/v1/namespaces/a/configmaps', { n: 1 })).status, 201);
    const seen = connections[first];
    assert.ok(seen, 'the first write opened a connection');
    // Idle well past the upstream's limit: on a pool without an idle lifetime, this write met the closed connection (503).
    await sleep(UPSTREAM_IDLE_LIMIT_MS * 2);
    const before = received.length;
    assert.equal((await upstream.request('POST', '/api/v1/namespaces/a/configmaps', { n: 2 })).status, 201);
    assert.deepEqual(received.slice(before), ['POST /api/v1/namespaces/a/configmaps'], 'sent once, answered');
    assert.equal(connections.length, first + 2, 'on a fresh connection');
    assert.equal(seen.closed && seen.closedByPeer, true, 'the client, not the upstream, closed the idle connection');
  }));

  it('a write that meets a connection the upstream closed is not sent again: 503 in Status terms, received once', () => withClient(60_000, async (upstream) => {
    // The client's idle lifetime is above the upstream's limit here: the race happens on purpose.
    assert.equal((await upstream.request('POST', '/api/v1/namespaces/a/configmaps', { n: 1 })).status, 201);
    await sleep(UPSTREAM_IDLE_LIMIT_MS * 2);
    const before = received.length;
    await assert.rejects(upstream.request('POST', '/api/v1/namespaces/a/configmaps', { n: 2 }),
      (err) => err instanceof ApiError && err.code === 503 && err.message === UNAVAILABLE_MESSAGE);
    assert.deepEqual(received.slice(before), ['POST /api/v1/namespaces/a/configmaps'], 'the write was not sent a second time');
  }));

  it('a read that meets a connection the upstream closed is sent once more on a fresh one', () => withClient(60_000, async (upstream) => {
    assert.equal((await upstream.request('GET', '/api/v1/namespaces/a/configmaps/x')).status, 200);
    await sleep(UPSTREAM_IDLE_LIMIT_MS * 2);
    const before = received.length;
    assert.equal((await upstream.request('GET', '/api/v1/namespaces/a/configmaps/x')).status, 200);
    assert.deepEqual(received.slice(before), ['GET /api/v1/namespaces/a/configmaps/x', 'GET /api/v1/namespaces/a/configmaps/x'], 'lost once, then answered');
  }));

  it('an answer slower than the idle lifetime is not cut', () => withClient(50, async (upstream) => {
    const res = await upstream.request<{ kind: string }>('GET', '/slow?delayMs=400');
    assert.deepEqual([res.status, res.body], [200, { kind: 'ConfigMap' }]);
  }));
});
