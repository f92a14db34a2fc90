// The shared cache against the embedded apiserver over real TLS: two tenants'
// objects created upstream directly (prefixed namespaces, with and without the
// tenant label), served through the same call the forwarder makes
// (createCacheServer) on a plain HTTP front, with requests translated by the
// real translator. Also measures 1,000 tenant watches on one resource.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { parseRequestInfo } from '../../../src/core/request-info.ts';
import { translateRequest } from '../../../src/core/tenancy/request-translation.ts';
import { TENANT_LABEL } from '../../../src/core/tenancy/tenant-id.ts';
import { toApiError } from '../../../src/core/api-error.ts';
import type { KubeObject, WatchEvent } from '../../../src/core/types.ts';
import { createSharedCache, type SharedCache } from '../../../src/gateway/cache/shared-cache.ts';
import { createCacheServer } from '../../../src/gateway/cache/serve-from-cache.ts';
import type { WatchSink } from '../../../src/gateway/cache/watch-session.ts';
import { eventually } from '../../helpers/poll.ts';

const A = 'tena01';
const B = 'tenb02';

interface Front { url: string; close(): Promise<void> }

/** Tenant requests (tenant id in a header: authentication is not under test here) answered by serveFromCache or 501. */
async function startFront(cache: SharedCache): Promise<Front> {
  const serve = createCacheServer(cache, { maxWatchBufferBytes: 64 * 1024 });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front.invalid');
    const ctx = { id: String(req.headers['x-tenant']) };
    (async () => {
      const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
      const fwd = translateRequest(ctx, info, url.searchParams);
      if (fwd.action !== 'forward' || !(await serve(req, res, ctx, info, fwd))) {
        res.writeHead(501).end('not served from the cache');
      }
    })().catch((err: unknown) => {
      const e = toApiError(err);
      if (!res.headersSent) res.writeHead(e.code, { 'content-type': 'application/json' }).end(JSON.stringify(e.toStatus()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function get(front: Front, tenant: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${front.url}${path}`, { headers: { 'x-tenant': tenant } });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** Reads a watch stream's events as they come. */
function openWatch(front: Front, tenant: string, path: string): { events: WatchEvent[]; status: Promise<number>; ended: () => boolean; close(): void } {
  const events: WatchEvent[] = [];
  let ended = false;
  let buffer = '';
  let req!: http.ClientRequest;
  const status = new Promise<number>((resolve) => {
    req = http.get(`${front.url}${path}`, { headers: { 'x-tenant': tenant } }, (res) => {
      resolve(res.statusCode ?? 0);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) events.push(JSON.parse(line) as WatchEvent);
        }
      });
      res.on('close', () => { ended = true; });
    });
    req.on('error', () => { ended = true; });
  });
  return { events, status, ended: () => ended, close: () => req.destroy() };
}

describe('shared cache against the embedded apiserver', () => {
  let server: RunningApiServer;
  let upstream: Upstream;
  let cache: SharedCache;
  let front: Front;
  const def = (resource: string, group = '', version = 'v1') => server.api.lookup(group, version, resource)!;
  const ns = (name: string, tenant?: string) => server.api.create(def('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(tenant ? { labels: { [TENANT_LABEL]: tenant } } : {}) } });
  const cm = (namespace: string, name: string, labels?: Record<string, string>): KubeObject =>
    server.api.create(def('configmaps'), namespace, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...(labels ? { labels } : {}) }, data: { k: 'v' } });

  before(async () => {
    server = await startApiServer({ port: 0 });
    upstream = createUpstream({ yaml: server.kubeconfig });
    cache = createSharedCache(upstream, { bookmarkIntervalMs: 200 });
    front = await startFront(cache);
    for (const t of [A, B]) {
      for (let i = 0; i < 12; i++) ns(`${t}-ns${String(i).padStart(2, '0')}`, t);
    }
    ns('lookalike-x'); // an upstream system namespace: no tenant's
  });
  after(async () => {
    await front.close();
    cache.stop();
    upstream.close();
    await server.stop();
  });

  it('all-namespaces lists show label-less objects of the tenant namespaces, never another tenant or the system', async () => {
    cm(`${A}-ns00`, 'mine', { [TENANT_LABEL]: A, app: 'web' });
    cm(`${A}-ns00`, 'made-by-a-controller'); // no tenant label, like kube-root-ca.crt or Events
    cm(`${B}-ns00`, 'theirs', { [TENANT_LABEL]: B });
    cm('kube-system', 'system');
    const { status, body } = await get(front, A, '/api/v1/configmaps');
    assert.equal(status, 200);
    const names = body.items.map((i: KubeObject) => `${i.metadata.namespace}/${i.metadata.name}`);
    assert.ok(names.includes('ns00/mine'));
    assert.ok(names.includes('ns00/made-by-a-controller'));
    assert.ok(!names.some((n: string) => n.includes('theirs') || n.includes('system')));
    assert.ok(!JSON.stringify(body).includes(`${A}-`), 'no prefix in the tenant view');
    assert.ok(!JSON.stringify(body).includes(TENANT_LABEL));
  });

  it('cluster-scoped lists: the tenant namespaces, unprefixed', async () => {
    const { body } = await get(front, B, '/api/v1/namespaces');
    const names = body.items.map((i: KubeObject) => i.metadata.name);
    assert.equal(names.length, 12);
    assert.equal(names[0], 'ns00');
  });

  it('pages with continue across many namespaces: full pages, every object once', async () => {
    for (let i = 0; i < 12; i++) for (let j = 0; j < 3; j++) cm(`${A}-ns${String(i).padStart(2, '0')}`, `p${j}`, { page: 'yes' });
    for (let i = 0; i < 12; i++) cm(`${B}-ns${String(i).padStart(2, '0')}`, 'p0', { page: 'yes' });
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const q = new URLSearchParams({ labelSelector: 'page=yes', limit: '5', ...(token ? { continue: token } : {}) });
      const { status, body } = await get(front, A, `/api/v1/configmaps?${q}`);
      assert.equal(status, 200);
      pages++;
      if (body.metadata.continue) assert.equal(body.items.length, 5, 'a page before the last is full');
      seen.push(...body.items.map((i: KubeObject) => `${i.metadata.namespace}/${i.metadata.name}`));
      if (pages === 2) cm(`${A}-ns00`, 'p9', { page: 'yes' }); // after the snapshot: not in this listing
      token = body.metadata.continue ?? '';
    } while (token);
    assert.equal(seen.length, 36);
    assert.equal(new Set(seen).size, 36);
    assert.deepEqual(seen, [...seen].sort());
  });

  it('a bad continue token is 400, in kube words', async () => {
    const { status, body } = await get(front, A, '/api/v1/configmaps?continue=bm90LWpzb24');
    assert.equal(status, 400);
    assert.match(body.message, /continue key is not valid/);
  });

  it('watch: events entering and leaving a label selection, other tenants unseen', async () => {
    const list = await get(front, A, '/api/v1/configmaps?labelSelector=stage%3Dlive');
    const w = openWatch(front, A, `/api/v1/configmaps?watch=true&labelSelector=stage%3Dlive&resourceVersion=${list.body.metadata.resourceVersion}`);
    assert.equal(await w.status, 200);
    const obj = cm(`${A}-ns01`, 'mover', { stage: 'draft' });
    cm(`${B}-ns01`, 'mover', { stage: 'live' });
    const update = (stage: string) => {
      const current = server.api.get(def('configmaps'), `${A}-ns01`, 'mover');
      current.metadata.labels = { stage };
      return server.api.update(def('configmaps'), `${A}-ns01`, 'mover', current);
    };
    update('live');
    update('live-too');
    await eventually(async () => w.events.length >= 2, 'enter and leave');
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name} ${e.object.metadata.labels?.stage}`),
      ['ADDED ns01/mover live', 'DELETED ns01/mover live']);
    assert.ok(obj.metadata.resourceVersion);
    w.close();
  });

  it('watch: resume from a resourceVersion replays what was missed; one older than the cache history is left to the forwarder', async () => {
    const list = await get(front, B, '/api/v1/configmaps');
    const from = list.body.metadata.resourceVersion as string;
    cm(`${B}-ns02`, 'missed-1');
    cm(`${A}-ns02`, 'not-for-b');
    cm(`${B}-ns03`, 'missed-2');
    await eventually(async () => (await get(front, B, '/api/v1/configmaps')).body.items.some((i: KubeObject) => i.metadata.name === 'missed-2'), 'cached');
    const w = openWatch(front, B, `/api/v1/configmaps?watch=1&resourceVersion=${from}`);
    await eventually(async () => w.events.length >= 2, 'replay');
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED missed-1', 'ADDED missed-2']);
    w.close();
    // Older than the cache's history: left to the forwarder (this front's 501), which asks the upstream.
    const old = openWatch(front, B, '/api/v1/configmaps?watch=1&resourceVersion=1');
    assert.equal(await old.status, 501);
    old.close();
  });

  it('a resourceVersion far ahead: 504 Too large resource version', async () => {
    const { status, body } = await get(front, A, '/api/v1/configmaps?resourceVersion=99999999');
    assert.equal(status, 504);
    assert.match(body.message, /^Too large resource version: 99999999, current: \d+$/);
  });

  it('Tables are left to the forwarder', async () => {
    const res = await fetch(`${front.url}/api/v1/configmaps`, { headers: { 'x-tenant': A, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    assert.equal(res.status, 501);
    await res.text();
  });

  it('1,000 tenant watches on one resource share one upstream watch (memory and fan-out measured)', async () => {
    const sinks: { count: number }[] = [];
    const stops: (() => void)[] = [];
    globalThis.gc?.();
    const before = process.memoryUsage();
    for (let i = 0; i < 1000; i++) {
      const id = `w${String(i).padStart(5, '0')}`;
      const counter = { count: 0 };
      const sink: WatchSink = { write: (e) => { if (e.type === 'ADDED' && e.object.metadata.name?.startsWith('c')) counter.count++; return true; }, end: () => undefined };
      const q = new URLSearchParams({ watch: 'true', labelSelector: `${TENANT_LABEL}=${id}`, allowWatchBookmarks: 'true' });
      const stop = await cache.watch({ id }, { path: '/api/v1/configmaps', query: q, namespaced: true, class: 'tenant-namespaced' }, sink);
      assert.ok(stop);
      stops.push(stop);
      sinks.push(counter);
    }
    globalThis.gc?.();
    const after = process.memoryUsage();
    const heapDelta = (after.heapUsed - before.heapUsed) / 1024 / 1024;
    // Each namespace also gets kube-root-ca.crt (no tenant label; counted apart). Two ConfigMaps per tenant, each for its own watcher only.
    for (let i = 0; i < 1000; i++) ns(`w${String(i).padStart(5, '0')}-app`, `w${String(i).padStart(5, '0')}`);
    const started = Date.now();
    const total = 2000;
    for (let i = 0; i < total; i++) cm(`w${String(i % 1000).padStart(5, '0')}-app`, `c${i}`, { [TENANT_LABEL]: `w${String(i % 1000).padStart(5, '0')}` });
    await eventually(async () => sinks.every((s) => s.count === 2), 'fan-out', { timeoutMs: 60_000, intervalMs: 50 }).catch((err: unknown) => {
      const hist = new Map<number, number>();
      for (const s of sinks) hist.set(s.count, (hist.get(s.count) ?? 0) + 1);
      console.log('# delivered per watch (count → watches):', [...hist]);
      throw err;
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(`# 1,000 tenant watches: heap +${heapDelta.toFixed(1)} MiB (rss ${(after.rss / 1024 / 1024).toFixed(0)} MiB); ${total} events written upstream and delivered in ${seconds.toFixed(2)} s (${Math.round(total / seconds)} events/s end to end)`);
    assert.ok(heapDelta < 200, `heap delta ${heapDelta} MiB`);
    assert.equal(cache.stats().watchers, 1000);
    for (const stop of stops) stop();
    assert.equal(cache.stats().watchers, 0);
  });
});
