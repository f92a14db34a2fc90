// A tenant's request body is never read by the upstream as a request of its own. The gateway streams
// a body it does not translate (a GET's) as it came; Transfer-Encoding is hop-by-hop, and Node writes a
// GET's body raw after the head unless told how it is framed, so a chunked GET body reached the
// upstream as a second request on Warren's connection, authenticated as Warren (r1's review, session 11).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import tls from 'node:tls';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../helpers/gateway-harness.ts';
import type { KubeHttp } from '../helpers/kube-http.ts';

/** A request with a chunked body (no Content-Length), as any HTTP/1.1 client may send. */
async function chunkedRequest(http: KubeHttp, method: string, path: string, body: string): Promise<number> {
  const url = new URL(http.server + path);
  const opts: https.RequestOptions = {
    method, hostname: url.hostname, port: url.port, path: url.pathname, agent: false,
    headers: { 'Transfer-Encoding': 'chunked', Accept: 'application/json' },
  };
  await http.kubeConfig.applyToHTTPSOptions(opts);
  return await new Promise((resolve, reject) => {
    const req = https.request(opts, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends `raw` on a fresh TLS connection with `http`'s credentials and returns the first line of the answer. */
async function rawStatusLine(http: KubeHttp, raw: string): Promise<string> {
  const opts = await http.httpsOptions('GET', '/');
  return await new Promise((resolve, reject) => {
    const socket = tls.connect({ host: opts.hostname ?? undefined, port: Number(opts.port), ca: opts.ca, cert: opts.cert, key: opts.key, servername: 'localhost' }, () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { answer += chunk; if (answer.includes('\r\n')) socket.destroy(); });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('request smuggling through a tenant\'s request body', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  before(async () => { h = await startGatewayHarness({ tenants: TWO_TENANTS }); });
  after(async () => { await h?.stop(); });

  it('a chunked GET body that is an HTTP request does not reach the upstream as one', async () => {
    const a = h.http('acme', 'admin');
    const ns = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'smuggled-by-acme' } });
    const smuggled = `POST /api/v1/namespaces HTTP/1.1\r\nHost: upstream\r\nContent-Type: application/json\r\nContent-Length: ${String(Buffer.byteLength(ns))}\r\n\r\n${ns}`;
    for (const path of ['/api/v1/namespaces', '/api/v1/namespaces/default/configmaps']) {
      const status = await chunkedRequest(a, 'GET', path, smuggled);
      assert.ok(status < 500, `GET ${path}: ${String(status)}`);
    }
    // One more round through the gateway's kept-alive upstream connections: a smuggled request would have run.
    assert.equal((await a.get('/api/v1/namespaces')).status, 200);
    assert.equal((await h.upstreamHttp.get('/api/v1/namespaces/smuggled-by-acme')).status, 404, 'acme created a namespace as Warren');
  });

  it('a write carrying both Content-Length and Transfer-Encoding is refused 400 before any handler reads it', async () => {
    // The two framings disagree (RFC 9112 §6.1); which one a reader believes decides where the next request
    // starts. The gateway's one rule (sendsBody) never has to choose: the HTTP parser refuses the request.
    const a = h.http('acme', 'admin');
    const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two-framings' } });
    const chunked = `${Buffer.byteLength(cm).toString(16)}\r\n${cm}\r\n0\r\n\r\n`;
    const line = await rawStatusLine(a, `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`);
    assert.match(line, /^HTTP\/1\.1 400 /);
    assert.equal((await a.get('/api/v1/namespaces/default/configmaps/two-framings')).status, 404);
  });
});
