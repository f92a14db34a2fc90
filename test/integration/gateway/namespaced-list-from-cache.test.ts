// A LIST in one namespace is answered from the shared cache once it is warm; it
// must still read the tenant's own writes at once, and only that namespace. The
// first one opens the cache in the background (and is forwarded); from then on
// the upstream is not asked for the list at all, even when writes to other
// resources moved its version: the embedded apiserver bookmarks the cache's
// watch on request, which proves the cache current.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import { WatchReader } from '../../helpers/watch-reader.ts';

/** Waits until a namespaced LIST of the resource no longer reaches the upstream: its cache is open. */
async function untilServedFromCache(h: GatewayHarness, tenant: string, namespace: string, resource: string): Promise<void> {
  const lists = countUpstreamLists(h, resource, `${h.idOf(tenant)}-${namespace}`);
  try {
    await eventually(async () => {
      const before = lists.count;
      assert.equal((await h.http(tenant, 'admin').get(`/api/v1/namespaces/${namespace}/${resource}`)).status, 200);
      return lists.count === before;
    }, `namespaced LISTs of ${resource} answered from the cache`);
  } finally {
    lists.restore();
  }
}

/** Counts the upstream WATCHes opened on one namespace (the cache's own watch spans all namespaces). */
function countUpstreamNamespacedWatches(h: GatewayHarness, namespace: string): { count: number; restore(): void } {
  const registry = h.api.registry;
  const original = registry.watch;
  const counter = { count: 0, restore: () => { registry.watch = original; } };
  registry.watch = ((def, query, onEvent) => {
    if (query.namespace === namespace) counter.count++;
    return original.call(registry, def, query, onEvent);
  }) as typeof registry.watch;
  return counter;
}

/** Counts the LISTs (collection reads, not probes with limit=1) the upstream serves for one resource in one namespace. */
function countUpstreamLists(h: GatewayHarness, resource: string, namespace: string): { count: number; restore(): void } {
  const registry = h.api.registry;
  const originals = { list: registry.list, listJson: registry.listJson };
  const counter = { count: 0, restore: () => { Object.assign(registry, originals); } };
  const note = (def: { resource: string }, query: { namespace?: string; limit?: number }): void => {
    if (def.resource === resource && query.namespace === namespace && query.limit !== 1) counter.count++;
  };
  registry.list = ((def, query) => { note(def, query); return originals.list.call(registry, def, query); }) as typeof registry.list;
  registry.listJson = ((def, query) => { note(def, query); return originals.listJson.call(registry, def, query); }) as typeof registry.listJson;
  return counter;
}

describe('gateway: namespaced LIST and WATCH from the warm cache', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    const a = h.http('acme', 'admin');
    for (const ns of ['one', 'two']) assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('the first LIST opens the cache; later ones are not LISTs upstream, yet see every write made just before (other resources written in between)', async () => {
    const a = h.http('acme', 'admin');
    const upstreamLists = countUpstreamLists(h, 'secrets', `${h.idOf('acme')}-three`);
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'three' } })).status, 201);
    // The first namespaced LIST of the resource may be forwarded; it opens the cache behind it.
    assert.equal((await a.get('/api/v1/namespaces/three/secrets')).status, 200);
    await untilServedFromCache(h, 'acme', 'three', 'secrets');
    const secretLists = upstreamLists.count;
    for (let i = 0; i < 15; i++) {
      // Another resource's write moves the upstream version with no event for the secrets cache.
      assert.equal((await a.post('/api/v1/namespaces/three/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `other-${i}` } })).status, 201);
      assert.equal((await a.post('/api/v1/namespaces/three/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${i}` }, stringData: { k: 'v' } })).status, 201);
      assert.equal((await a.post('/api/v1/namespaces/three/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `after-${i}` } })).status, 201);
      const list = await a.get('/api/v1/namespaces/three/secrets');
      assert.equal(list.status, 200, list.text);
      const names = list.body.items.map((item: any) => item.metadata.name);
      assert.ok(names.includes(`s-${i}`), `s-${i} missing from the LIST right after its create: ${names.join(',')}`);
      assert.equal(Number(list.body.metadata.resourceVersion) >= Number(h.api.registry.store.revision()) - 1, true, 'the list is at the upstream version of its moment');
    }
    assert.equal(upstreamLists.count, secretLists, 'no secrets LIST reached the upstream once the cache was warm');
    upstreamLists.restore();
  });

  it('a namespaced WATCH is served by the cache: replay from a list version, live events of that namespace and tenant only, no upstream watch', async () => {
    const a = h.http('acme', 'admin');
    const b = h.http('globex', 'admin');
    const upstreamWatches = countUpstreamNamespacedWatches(h, `${h.idOf('acme')}-four`);
    for (const client of [a, b]) assert.equal((await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'four' } })).status, 201);
    // The first LIST opens the services cache (and is forwarded); then LISTs come from it.
    await untilServedFromCache(h, 'acme', 'four', 'services');
    const list = await a.get('/api/v1/namespaces/four/services');
    const from = list.body.metadata.resourceVersion as string;
    const svc = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }] } });
    assert.equal((await a.post('/api/v1/namespaces/four/services', svc('missed'))).status, 201);
    assert.equal((await b.post('/api/v1/namespaces/four/services', svc('theirs'))).status, 201);
    assert.equal((await a.post('/api/v1/namespaces/one/services', svc('other-namespace'))).status, 201);
    const w = await WatchReader.open(a, `/api/v1/namespaces/four/services?watch=true&resourceVersion=${from}`);
    try {
      assert.equal(w.status, 200);
      const replayed = await w.until((e) => e.object?.metadata?.name === 'missed');
      assert.deepEqual(replayed.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`), ['ADDED four/missed']);
      assert.equal((await a.post('/api/v1/namespaces/four/services', svc('live'))).status, 201);
      assert.equal((await b.post('/api/v1/namespaces/four/services', svc('theirs-live'))).status, 201);
      assert.equal((await a.post('/api/v1/namespaces/four/services', svc('live-2'))).status, 201);
      const live = await w.until((e) => e.object?.metadata?.name === 'live-2');
      assert.deepEqual(live.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`), ['ADDED four/live', 'ADDED four/live-2']);
      assert.doesNotMatch(JSON.stringify([...replayed, ...live]), /acme01|globx1|theirs/);
      assert.equal(upstreamWatches.count, 0, 'served by the shared cache, not an upstream watch on the namespace');
    } finally {
      w.close();
      upstreamWatches.restore();
    }
  });

  it('a namespaced WATCH from a version newer than the cache (moved by other resources) opens at once; one older than its history goes upstream', async () => {
    const a = h.http('acme', 'admin');
    await untilServedFromCache(h, 'acme', 'four', 'services');
    // A write to another resource: the upstream version moves, the services cache has no event to follow it.
    assert.equal((await a.post('/api/v1/namespaces/four/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'moves-the-version' } })).status, 201);
    const newest = String(h.api.registry.store.revision());
    const started = Date.now();
    const w = await WatchReader.open(a, `/api/v1/namespaces/four/services?watch=true&resourceVersion=${newest}`);
    try {
      assert.equal(w.status, 200, JSON.stringify(w.errorBody));
      assert.ok(Date.now() - started < 2_000, 'no wait for a version the cache is told about at once');
      assert.equal((await a.post('/api/v1/namespaces/four/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'after-newest' }, spec: { ports: [{ port: 80 }] } })).status, 201);
      const seen = await w.until((e) => e.object?.metadata?.name === 'after-newest');
      assert.deepEqual(seen.map((e) => e.type), ['ADDED']);
    } finally {
      w.close();
    }
    // Older than the cache's history (it opened after that version): the upstream answers, as without a cache.
    const upstreamWatches = countUpstreamNamespacedWatches(h, `${h.idOf('acme')}-four`);
    const old = await WatchReader.open(a, '/api/v1/namespaces/four/services?watch=true&resourceVersion=2');
    try {
      const first = await old.next();
      assert.equal(upstreamWatches.count, 1, 'forwarded to the upstream');
      // This upstream's history starts when it started: version 2 is gone there too.
      assert.equal(first?.type, 'ERROR');
      assert.equal(first?.object.code, 410);
      assert.doesNotMatch(JSON.stringify(first), /acme01/);
    } finally {
      old.close();
      upstreamWatches.restore();
    }
  });

  it('every create is in the very next LIST of its namespace, and nothing of other namespaces or tenants is', async () => {
    const a = h.http('acme', 'admin');
    // An all-namespaces read opens (warms) the resource's cache; namespaced LISTs use it from then on.
    assert.equal((await a.get('/api/v1/configmaps')).status, 200);
    const b = h.http('globex', 'admin');
    assert.equal((await b.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'one' } })).status, 201);
    assert.equal((await b.post('/api/v1/namespaces/one/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'theirs' } })).status, 201);
    assert.equal((await a.post('/api/v1/namespaces/two/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere' } })).status, 201);
    for (let i = 0; i < 20; i++) {
      assert.equal((await a.post('/api/v1/namespaces/one/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` } })).status, 201);
      const list = await a.get('/api/v1/namespaces/one/configmaps');
      assert.equal(list.status, 200, list.text);
      const names = list.body.items.map((item: any) => item.metadata.name);
      assert.ok(names.includes(`cm-${i}`), `cm-${i} missing from the LIST right after its create: ${names.join(',')}`);
      assert.ok(!names.includes('theirs') && !names.includes('elsewhere'), names.join(','));
      assert.ok(list.body.items.every((item: any) => item.metadata.namespace === 'one'));
      assert.doesNotMatch(list.text, /acme01|globx1/);
    }
  });
});
