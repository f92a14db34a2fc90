// Break 5: the bodies that cost the gateway far more than their size are
// refused before they are parsed (ADR 0026). Not timed: the proof is that the
// limits refuse, in kube's words, and that nothing reaches the upstream.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';
import { LARGE_BODY_QUEUE } from '../../../src/gateway/forward/heavy-body-gate.ts';
import { BODIES_READ_FIRST_PER_TENANT } from '../../../src/gateway/forward/body-read-first.ts';

/** A POST whose body is sent in part: it stays in flight until finish() sends the rest; `answered` resolves with its response. */
async function postInPart(http: KubeHttp, path: string, body: string): Promise<{ answered: Promise<{ status: number; body: any; headers: IncomingMessage['headers'] }>; finish(): void; abort(): void }> {
  const url = new URL(http.server + path);
  const opts: https.RequestOptions = {
    method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, agent: false,
    headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Accept: 'application/json' },
  };
  await http.kubeConfig.applyToHTTPSOptions(opts);
  const req = https.request(opts);
  const answered = new Promise<{ status: number; body: any; headers: IncomingMessage['headers'] }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
    });
  });
  answered.catch(() => undefined);
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { answered, finish: () => { req.end(body.slice(half)); }, abort: () => { req.destroy(); } };
}

const PATH = '/api/v1/namespaces/web/configmaps';

describe('heavy request bodies through a running gateway', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    a = h.http('acme', 'admin');
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  const upstreamHas = async (name: string) => (await h.upstreamHttp.get(`/api/v1/namespaces/acme01-web/configmaps/${name}`)).status === 200;

  it('100,000-deep JSON: 400 BadRequest with kube\'s "exceeded max depth", not a 500', async () => {
    const n = 100_000;
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":{},"x":${'['.repeat(n)}${']'.repeat(n)}}`;
    for (const [method, path, contentType] of [['POST', PATH, 'application/json'], ['PATCH', `${PATH}/deep`, 'application/merge-patch+json'], ['PATCH', `${PATH}/deep?fieldManager=t`, 'application/apply-patch+yaml']] as const) {
      const r = await a.request(method, path, { body, contentType });
      assert.equal(r.status, 400, `${method} ${contentType}: ${r.status} ${r.text.slice(0, 300)}`);
      assert.equal(r.body.reason, 'BadRequest');
      assert.match(r.body.message, /json parse error: invalid character '\[' exceeded max depth/);
    }
    assert.equal(await upstreamHas('deep'), false);
  });

  it('the attack\'s 200,000 labels: 400 before parsing, nothing upstream', async () => {
    const labels: Record<string, string> = {};
    for (let i = 0; i < 200_000; i++) labels[`k${i.toString(36)}`] = 'v';
    const r = await a.request('POST', PATH, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wide', labels }, data: { x: 'y' } }) });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(r.body.message, /must be of type ConfigMap.*an object has more than 10000 members/);
    assert.equal(await upstreamHas('wide'), false);
  });

  it('3 MB of one-member objects, each with a key of its own: 400 before parsing (the bound per object did not catch it), nothing upstream', async () => {
    const parts: string[] = [];
    for (let i = 0, len = 0; len < 3_000_000; i++) { const p = `{"${i.toString(36)}":0}`; parts.push(p); len += p.length + 1; }
    const r = await a.request('POST', PATH, { body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"spread"},"x":[${parts.join(',')}]}` });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(r.body.message, /must be of type ConfigMap.*the body has more than 100000 object members/);
    assert.equal(await upstreamHas('spread'), false);
  });

  it('a tenant\'s large bodies are answered one after another, each in full and translated', async () => {
    // The heavy-body gate (one large body per tenant at a time) must queue, never drop or mix up, writes.
    const labels: Record<string, string> = {};
    for (let i = 0; i < 2_000; i++) labels[`k${i.toString(36)}`] = 'v';
    const body = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { blob: 'x'.repeat(300 * 1024) } });
    const answers = await Promise.all(['big-1', 'big-2', 'big-3'].map((name) => a.post(PATH, body(name))));
    for (const [i, r] of answers.entries()) {
      assert.equal(r.status, 201, r.text.slice(0, 300));
      assert.equal(r.body.metadata.name, `big-${String(i + 1)}`);
      assert.equal(r.body.metadata.namespace, 'web');
      assert.equal(r.body.metadata.labels['tenancy.warren.dev/tenant'], undefined);
      assert.equal(Object.keys(r.body.metadata.labels).length, 2_000);
    }
  });

  it('a tenant\'s large bodies beyond one in flight and LARGE_BODY_QUEUE waiting get 429; meanwhile other tenants\' and its own small requests are served', async () => {
    const g = h.http('globex', 'admin');
    assert.equal((await g.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
    const body = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: 'x'.repeat(300 * 1024) } });
    // None of these bodies is complete: none can be answered but by a refusal. One takes the turn, LARGE_BODY_QUEUE wait.
    const names = Array.from({ length: LARGE_BODY_QUEUE + 2 }, (_, i) => `part-${String(i)}`);
    const heavy = await Promise.all(names.map((name) => postInPart(a, PATH, body(name))));
    try {
      const first = await Promise.race(heavy.map((p, i) => p.answered.then((r) => ({ ...r, i }))));
      assert.equal(first.status, 429, JSON.stringify(first.body).slice(0, 300));
      assert.equal(first.body.reason, 'TooManyRequests');
      assert.equal(first.headers['retry-after'], '1');
      assert.match(first.body.message, new RegExp(`a large request body in progress and ${String(LARGE_BODY_QUEUE)} waiting`));
      // While acme's large bodies are in flight: globex reads and writes, and acme's own small write goes through.
      assert.equal((await g.get('/api/v1/namespaces/web/configmaps')).status, 200);
      assert.equal((await g.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'small' }, data: { a: 'b' } })).status, 201);
      assert.equal((await a.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'small-acme' }, data: { a: 'b' } })).status, 201);
      for (const name of names) assert.equal(await upstreamHas(name), false, name);
      // Completed, the waiting ones are written one after another; the refused one never.
      for (const [i, p] of heavy.entries()) if (i !== first.i) p.finish();
      for (const [i, p] of heavy.entries()) {
        if (i === first.i) continue;
        const r = await p.answered;
        assert.equal(r.status, 201, JSON.stringify(r.body).slice(0, 300));
        assert.equal(r.body.metadata.name, names[i]);
      }
      assert.equal(await upstreamHas(names[first.i]!), false);
    } finally {
      for (const p of heavy) p.abort();
    }
  });

  it('labels over 256 KiB: 422 as kube words it for annotations; within, created', async () => {
    const labels: Record<string, string> = {};
    for (let i = 0; i < 5_000; i++) labels[`key-${String(i).padStart(5, '0')}-${'k'.repeat(40)}`] = 'v'.repeat(63);
    const r = await a.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'long', labels } });
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.equal(r.body.message, 'ConfigMap "long" is invalid: metadata.labels: Too long: must have at most 262144 bytes');
    assert.equal(await upstreamHas('long'), false);
    const few: Record<string, string> = {};
    for (let i = 0; i < 2_000; i++) few[`k${i}`] = 'v';
    const ok = await a.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'many', labels: few } });
    assert.equal(ok.status, 201, ok.text.slice(0, 300));
    assert.equal(Object.keys(ok.body.metadata.labels).length, 2_000);
  });
});

// r1's review, session 11: a body under LARGE_BODY_BYTES took a fairness seat before it was read, and
// held it as long as the client took to send it. The adaptive gateway-wide limit starts at 4 seats, and a
// tenant with 4 requests outstanding is not yet "heavy" for the flood pacer: 4 half-sent small bodies held
// every gateway seat, and another tenant's GET waited out its queue and got 429. Fixed seats make the case
// certain. Now every body is read before the seat (body-read-first.ts, ADR 0026 amendment).
describe('small request bodies sent in part, gateway-wide seats fewer than a tenant\'s share', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({
      tenants: TWO_TENANTS,
      gateway: { fairness: { totalSeats: 4, adaptive: { enabled: false }, defaults: { queueTimeoutMs: 3_000 } } },
    });
    for (const t of ['acme', 'globex']) {
      assert.equal((await h.http(t, 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
    }
  });
  after(async () => { await h?.stop(); });

  it('another tenant is served while one tenant\'s small bodies stall; completed, they are written', async () => {
    const a = h.http('acme', 'admin');
    const body = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: 'x'.repeat(10 * 1024) } });
    const stalled = await Promise.all(Array.from({ length: 4 }, (_, i) => postInPart(a, PATH, body(`stalled-${String(i)}`))));
    try {
      const r = await h.http('globex', 'admin').get('/api/v1/namespaces/web/configmaps');
      assert.equal(r.status, 200, r.text.slice(0, 300));
      // acme's own reads are served too: its half-sent bodies hold none of its seats either.
      assert.equal((await a.get('/api/v1/namespaces/web/configmaps')).status, 200);
      // The bodies read before the seat are forwarded whole, once.
      for (const p of stalled) p.finish();
      for (const [i, p] of stalled.entries()) {
        const done = await p.answered;
        assert.equal(done.status, 201, JSON.stringify(done.body).slice(0, 300));
        assert.equal(done.body.metadata.name, `stalled-${String(i)}`);
        assert.equal(done.body.data.blob.length, 10 * 1024);
      }
    } finally {
      for (const p of stalled) p.abort();
    }
  });

  it('a tenant\'s half-sent bodies beyond its read-ahead bound get 429 saying so; the other tenant is still served', async () => {
    const a = h.http('acme', 'admin');
    const body = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { x: 'y'.repeat(1024) } });
    const stalled = await Promise.all(Array.from({ length: BODIES_READ_FIRST_PER_TENANT + 1 }, (_, i) => postInPart(a, PATH, body(`held-${String(i)}`))));
    try {
      const first = await Promise.race(stalled.map((p) => p.answered));
      assert.equal(first.status, 429, JSON.stringify(first.body).slice(0, 300));
      assert.match(first.body.message, new RegExp(`this cluster already has ${String(BODIES_READ_FIRST_PER_TENANT)} request bodies being received or waiting`));
      assert.equal((await h.http('globex', 'admin').post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'served' }, data: { a: 'b' } })).status, 201);
    } finally {
      for (const p of stalled) p.abort();
    }
  });
});
