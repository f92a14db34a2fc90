// The proxy adapter end to end: a real embedded apiserver (real TLS, Warren's
// admin client certificate) behind a tiny front that uses the adapter with the
// identity translation, plus an echo upstream for headers, hangs and upgrades.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { upstreamFromKubeconfig } from './kubeconfig-upstream.ts';
import { startEchoUpstream, type EchoUpstream } from './echo-upstream.ts';
import { startProxyFront, type ProxyFront } from './proxy-front.ts';
import { call, openStream, rawRequest, readLines, readUntil } from './front-client.ts';

const NS = 'proxy-test';

describe('proxy adapter over the embedded apiserver', () => {
  let server: RunningApiServer;
  let upstream: Upstream;
  let front: ProxyFront;

  before(async () => {
    server = await startApiServer({ port: 0 });
    upstream = upstreamFromKubeconfig(server.kubeconfig);
    front = await startProxyFront(upstream);
    const created = await upstream.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    assert.equal(created.status, 201);
  });
  after(async () => { await front.stop(); await server.stop(); });

  it('GETs an object, piped as upstream sent it', async () => {
    const res = await call(front.port, 'GET', `/api/v1/namespaces/${NS}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.metadata.name, NS);
  });

  it('GETs an object through the JSON translation path', async () => {
    const res = await call(front.port, 'GET', `/api/v1/namespaces/${NS}`, { headers: { 'x-test-mode': 'json' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.metadata.name, NS);
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.text));
  });

  it('sends the replacement body, not the client\'s, and upstream creates it', async () => {
    const replacement = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'replaced' }, data: { a: 'b' } });
    const res = await call(front.port, 'POST', `/api/v1/namespaces/${NS}/configmaps`, {
      headers: { 'Content-Type': 'application/json', 'x-test-body': replacement },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'original-and-much-longer-name' } }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.metadata.name, 'replaced');
  });

  it('LISTs through the JSON path with the same items as a direct LIST', async () => {
    for (let i = 0; i < 40; i++) {
      const r = await upstream.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } });
      assert.equal(r.status, 201);
    }
    const direct = await upstream.request<any>('GET', `/api/v1/namespaces/${NS}/configmaps`);
    const proxied = await call(front.port, 'GET', `/api/v1/namespaces/${NS}/configmaps`, { headers: { 'x-test-mode': 'json' } });
    assert.equal(proxied.status, 200);
    assert.equal(proxied.body.kind, 'ConfigMapList');
    assert.deepEqual(proxied.body.items.map((i: any) => i.metadata.name), direct.body.items.map((i: any) => i.metadata.name));
  });

  it('passes an upstream 404 Status through with its code', async () => {
    const res = await call(front.port, 'GET', `/api/v1/namespaces/${NS}/configmaps/missing`, { headers: { 'x-test-mode': 'json' } });
    assert.equal(res.status, 404);
    assert.equal(res.body.kind, 'Status');
    assert.equal(res.body.reason, 'NotFound');
  });

  it('streams a watch event by event', async () => {
    const list = await upstream.request<any>('GET', `/api/v1/namespaces/${NS}/configmaps`);
    const rv = list.body.metadata.resourceVersion;
    const { req, res } = await openStream(front.port, `/api/v1/namespaces/${NS}/configmaps?watch=1&resourceVersion=${rv}`, { 'x-test-mode': 'watch' });
    assert.equal(res.statusCode, 200);
    const got = readLines(res, 2);
    await upstream.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } });
    await upstream.request('DELETE', `/api/v1/namespaces/${NS}/configmaps/watched`);
    const events = await got;
    assert.deepEqual(events.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'watched'], ['DELETED', 'watched']]);
    req.destroy();
  });

  it('passes a refused watch (410 Expired) as a Status', async () => {
    const res = await call(front.port, 'GET', `/api/v1/namespaces/${NS}/configmaps?watch=1&resourceVersion=1`, { headers: { 'x-test-mode': 'watch' } });
    // The embedded server either replays from rv 1 (200) or says it is too old (410): both are upstream's call.
    assert.ok(res.status === 410 || res.status === 200);
    if (res.status === 410) assert.equal(res.body.reason, 'Expired');
  });
});

describe('proxy adapter when the upstream is down', () => {
  it('answers 503 ServiceUnavailable in tenant terms (no upstream address)', async () => {
    const server = await startApiServer({ port: 0 });
    const upstream = upstreamFromKubeconfig(server.kubeconfig);
    const front = await startProxyFront(upstream);
    try {
      assert.equal((await call(front.port, 'GET', '/api/v1/namespaces/default')).status, 200);
      await server.stop();
      for (const mode of ['pipe', 'json', 'watch']) {
        const res = await call(front.port, 'GET', '/api/v1/namespaces/default', { headers: { 'x-test-mode': mode } });
        assert.equal(res.status, 503, mode);
        assert.equal(res.body.kind, 'Status');
        assert.equal(res.body.reason, 'ServiceUnavailable');
        assert.ok(!res.text.includes('127.0.0.1') && !res.text.includes(String(server.port)), res.text);
      }
    } finally {
      await front.stop();
    }
  });
});

describe('proxy adapter headers, deadlines and upgrades (echo upstream)', () => {
  let echo: EchoUpstream;
  let front: ProxyFront;
  let audited: ProxyFront;

  before(async () => {
    echo = await startEchoUpstream();
    front = await startProxyFront(echo.upstream, { timeoutMs: 300 });
    audited = await startProxyFront(echo.upstream, { extraHeaders: { 'Impersonate-User': 'warren:tenant:abc123:alice' } });
  });
  after(async () => { await front.stop(); await audited.stop(); await echo.stop(); });

  it('never forwards the client\'s credential, identity or hop-by-hop headers', async () => {
    const res = await call(front.port, 'GET', '/headers?x=a//b', {
      headers: {
        'Authorization': 'Bearer tenant-token', 'Impersonate-User': 'system:admin', 'Impersonate-Group': 'system:masters',
        'X-Remote-User': 'root', 'Proxy-Authorization': 'Basic x', 'Cookie': 'c=1', 'TE': 'trailers',
        'Connection': 'keep-alive, X-Private', 'X-Private': 'hop', 'Accept': 'application/json', 'User-Agent': 'kubectl/v1.33.1',
      },
    });
    assert.equal(res.status, 200);
    const seen = res.body.headers;
    for (const name of ['authorization', 'impersonate-user', 'impersonate-group', 'x-remote-user', 'proxy-authorization', 'cookie', 'te', 'x-private']) {
      assert.equal(seen[name], undefined, `${name} reached upstream`);
    }
    assert.equal(seen['user-agent'], 'kubectl/v1.33.1');
    assert.equal(seen.host, new URL(echo.upstream.server).host);
    assert.equal(res.body.url, '/headers?x=a//b', 'the query is passed as given');
  });

  it('sends the caller\'s extra headers (impersonation for the upstream audit log)', async () => {
    const res = await call(audited.port, 'GET', '/headers', { headers: { 'Impersonate-User': 'forged' } });
    assert.equal(res.body.headers['impersonate-user'], 'warren:tenant:abc123:alice');
  });

  it('drops hop-by-hop response headers, including those named in Connection', async () => {
    const res = await call(front.port, 'GET', '/headers');
    assert.equal(res.headers['x-hop'], undefined);
    assert.equal(res.headers['keep-alive'], undefined);
    assert.equal(res.headers['x-kept'], 'yes');
  });

  it('answers 504 Timeout when upstream sends nothing in time', async () => {
    const started = Date.now();
    const res = await call(front.port, 'GET', '/hang');
    assert.equal(res.status, 504);
    assert.equal(res.body.reason, 'Timeout');
    assert.ok(Date.now() - started < 3_000);
    assert.ok(!res.text.includes('127.0.0.1'));
  });

  it('does not time out a stream whose head has arrived', async () => {
    const { req, res } = await openStream(front.port, '/stream');
    assert.equal(res.statusCode, 200);
    await new Promise((resolve) => setTimeout(resolve, 600)); // twice the deadline
    assert.equal(res.destroyed, false);
    req.destroy();
  });

  it('closes the upstream request when the client walks away from a stream', async () => {
    const closed = echo.closedOnce('/stream');
    const { req } = await openStream(front.port, '/stream');
    req.destroy();
    await closed;
  });

  const upgrades = [
    { name: 'SPDY/3.1 (kubectl exec, port-forward)', headers: 'Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io', protocol: 'v4.channel.k8s.io' },
    { name: 'WebSocket (kubectl 1.30+ exec)', headers: 'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v5.channel.k8s.io', protocol: 'v5.channel.k8s.io' },
  ];
  for (const u of upgrades) {
    it(`passes a ${u.name} upgrade through and relays bytes both ways`, async () => {
      const { head, socket, rest } = await rawRequest(front.port,
        `POST /api/v1/namespaces/ns/pods/p/exec?command=sh HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade\r\n${u.headers}\r\nAuthorization: Bearer tenant\r\n\r\nearly-bytes|`);
      try {
        assert.match(head, /^HTTP\/1\.1 101 /);
        assert.match(head, new RegExp(`X-Stream-Protocol-Version: ${u.protocol.replace(/\./g, '\\.')}`));
        assert.match(head, /X-Seen-Authorization: none/);
        assert.match(await readUntil(socket, 'early-bytes|', rest), /early-bytes\|/);
        socket.write('\u0000ping\u00ff');
        assert.match(await readUntil(socket, 'ping'), /ping/);
      } finally {
        socket.destroy();
      }
    });
  }

  it('sends a translated GET again on a fresh connection when the kept-alive one was closed; a write gets a 503, not a second send', async () => {
    const json = { 'x-test-mode': 'json' };
    assert.equal((await call(front.port, 'GET', '/drop-reused', { headers: json })).status, 200);
    const before = echo.seen.length;
    // The pool's connection has served one request: the upstream closes it on the next, unanswered.
    assert.equal((await call(front.port, 'GET', '/drop-reused', { headers: json })).status, 200);
    assert.equal(echo.seen.length - before, 2, 'the GET reached the upstream twice: once on the closed connection, once on a fresh one');
    assert.equal((await call(front.port, 'GET', '/drop-reused', { headers: json })).status, 200);
    const write = await call(front.port, 'POST', '/drop-reused', { headers: { ...json, 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(write.status, 503);
    assert.equal(write.body.reason, 'ServiceUnavailable');
  });

  // A chunked client body on a GET: Node frames a GET's body only when told (no Content-Length, no
  // Transfer-Encoding: the bytes go out raw after the head), so the upstream read the tenant's bytes as
  // a second request on Warren's own connection (request smuggling, authenticated by Warren's certificate).
  const cases = [
    { mode: 'json', method: 'GET', forwarded: true },
    { mode: 'piped', method: 'GET', forwarded: true },
    // http-proxy sends such a DELETE with Content-Length: 0 whatever follows: its body is not sent at all.
    { mode: 'piped', method: 'DELETE', forwarded: false },
  ] as const;
  for (const { mode, method, forwarded } of cases) {
    it(`frames a streamed chunked body (${method}, ${mode} path): the upstream never reads the client's bytes as a request of its own`, async () => {
      const smuggled = 'GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n';
      const path = `/headers?method=${method}&mode=${mode}`;
      const headers: Record<string, string> = { 'Transfer-Encoding': 'chunked', ...(mode === 'json' ? { 'x-test-mode': 'json' } : {}) };
      const res = await call(front.port, method, path, { headers, body: smuggled });
      assert.equal(res.status, 200);
      // One more exchange through the same pool: a smuggled request would have been read by now.
      assert.equal((await call(front.port, 'GET', '/headers?after')).status, 200);
      const got = echo.seen.find((r) => r.url === path);
      assert.equal(got?.body, forwarded ? smuggled : '', forwarded ? 'the upstream read the bytes as this request\'s body' : 'the body was not sent');
      assert.equal(echo.seen.some((r) => r.url === '/smuggled'), false, 'the client\'s bytes reached the upstream as a request');
    });
  }

  it('passes upstream\'s refusal of an upgrade (403 Status) to the client', async () => {
    const { head, socket, rest } = await rawRequest(front.port, 'GET /refuse HTTP/1.1\r\nHost: g\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
    try {
      assert.match(head, /^HTTP\/1\.1 403 /);
      const body = await readUntil(socket, '}', rest);
      assert.equal(JSON.parse(body).reason, 'Forbidden');
    } finally {
      socket.destroy();
    }
  });
});

describe('upgrades when the upstream is down', () => {
  it('answers 503 on the raw socket', async () => {
    const echo = await startEchoUpstream();
    const front = await startProxyFront(echo.upstream);
    await echo.stop();
    try {
      const { head, socket, rest } = await rawRequest(front.port, 'GET /exec HTTP/1.1\r\nHost: g\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 503 /);
      const body = JSON.parse(await readUntil(socket, '}', rest));
      assert.equal(body.reason, 'ServiceUnavailable');
      socket.destroy();
    } finally {
      await front.stop();
    }
  });
});
