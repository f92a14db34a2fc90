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

/** Counts the LISTs (collection reads, not probes with limit=1) the upstream serves for secrets of one namespace. */
function countUpstreamSecretLists(h: GatewayHarness, namespace: string): { count: number; restore(): void } {
  const registry = h.api.registry;
  const originals = { list: registry.list, listJson: registry.listJson };
  const counter = { count: 0, restore: () => { Object.assign(registry, originals); } };
  const note = (def: { resource: string }, query: { namespace?: string; limit?: number }): void => {
    if (def.resource === 'secrets' && query.namespace === namespace && query.limit !== 1) counter.count++;
  };
  registry.list = ((def, query) => { note(def, query); return originals.list.call(registry, def, query); }) as typeof registry.list;
  registry.listJson = ((def, query) => { note(def, query); return originals.listJson.call(registry, def, query); }) as typeof registry.listJson;
  return counter;
}

describe('gateway: namespaced LIST from the warm cache', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    const a = h.http('acme', 'admin');
    for (const ns of ['one', 'two']) assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('the first LIST opens the cache; later ones are not LISTs upstream, yet see every write made just before (other resources written in between)', async () => {
    const a = h.http('acme', 'admin');
    const upstreamLists = countUpstreamSecretLists(h, `${h.idOf('acme')}-three`);
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'three' } })).status, 201);
    // The first namespaced LIST of the resource may be forwarded; it opens the cache behind it.
    assert.equal((await a.get('/api/v1/namespaces/three/secrets')).status, 200);
    await eventually(async () => {
      const before = upstreamLists.count;
      assert.equal((await a.get('/api/v1/namespaces/three/secrets')).status, 200);
      return upstreamLists.count === before;
    }, 'namespaced LISTs of secrets answered from the cache');
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
