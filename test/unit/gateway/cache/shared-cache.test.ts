// The shared cache over a fake upstream: what a tenant sees, pages, snapshots,
// watch semantics (selection enter/leave, resume, 410, bookmarks, timeouts,
// slow consumers) and that tenants share one upstream watch.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createSharedCache, type SharedCache, type CacheRequest } from '../../../../src/gateway/cache/shared-cache.ts';
import type { WatchSink } from '../../../../src/gateway/cache/watch-session.ts';
import { toUpstreamLabelSelector } from '../../../../src/core/tenancy/label-selector-translation.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject, WatchEvent } from '../../../../src/core/types.ts';
import { eventually } from '../../../helpers/poll.ts';
import { FakeUpstream } from './fake-upstream.ts';

const A = 'abc123';
const B = 'def456';
const ctxA = { id: A, user: 'alice' };

function request(id: string, query: Record<string, string> = {}, labelSelector = ''): CacheRequest {
  const q = new URLSearchParams(query);
  q.set('labelSelector', toUpstreamLabelSelector(id, labelSelector, { requireTenantLabel: true }));
  return { path: '/api/v1/configmaps', query: q, namespaced: true, class: 'tenant-namespaced' };
}

function cm(namespace: string, name: string, labels?: Record<string, string>): KubeObject {
  return { metadata: { namespace, name, ...(labels ? { labels } : {}) }, data: {} };
}

class Collector implements WatchSink {
  events: WatchEvent[] = [];
  ended = false;
  accept = true;
  write(event: WatchEvent): boolean { this.events.push(event); return this.accept; }
  end(): void { this.ended = true; }
  names(): string[] { return this.events.map((e) => `${e.type} ${e.object.metadata?.namespace ?? ''}/${e.object.metadata?.name ?? ''}`); }
}

describe('shared cache', () => {
  let up: FakeUpstream;
  let cache: SharedCache;
  beforeEach(() => {
    up = new FakeUpstream('/api/v1/configmaps', 'ConfigMapList', 'v1');
    cache = createSharedCache(up, { consistencyWaitMs: 10, freshnessTimeoutMs: 200, bookmarkIntervalMs: 50 });
  });
  afterEach(() => cache.stop());

  it('lists the tenant objects only, label or not, in tenant terms and key order', async () => {
    up.apply('ADDED', cm(`${A}-web`, 'kube-root-ca.crt'));
    up.apply('ADDED', cm(`${A}-app`, 'settings', { [TENANT_LABEL]: A, tier: 'x' }));
    up.apply('ADDED', cm(`${B}-web`, 'theirs', { [TENANT_LABEL]: B }));
    up.apply('ADDED', cm('kube-system', 'cluster-info'));
    const list = await cache.list(ctxA, request(A));
    assert.ok(list);
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(list.metadata.resourceVersion, String(up.rv));
    assert.deepEqual(list.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`), ['app/settings', 'web/kube-root-ca.crt']);
    assert.deepEqual(list.items[0]?.metadata.labels, { tier: 'x' });
    assert.equal(list.items[0]?.kind, undefined, 'built-in list items carry no kind, as on the wire');
  });

  it('applies label selectors in tenant terms', async () => {
    up.apply('ADDED', cm(`${A}-web`, 'a', { app: 'x', [TENANT_LABEL]: A }));
    up.apply('ADDED', cm(`${A}-web`, 'b', { app: 'y' }));
    const list = await cache.list(ctxA, request(A, {}, 'app=y'));
    assert.deepEqual(list?.items.map((i) => i.metadata.name), ['b']);
    const none = await cache.list(ctxA, request(A, {}, `${TENANT_LABEL}=${A}`));
    assert.deepEqual(none?.items, []);
  });

  it('pages are full, and later pages keep the first page snapshot', async () => {
    for (let i = 0; i < 25; i++) {
      up.apply('ADDED', cm(`${A}-ns${String(i).padStart(2, '0')}`, 'c'));
      up.apply('ADDED', cm(`${B}-ns${String(i).padStart(2, '0')}`, 'c'));
    }
    const first = await cache.list(ctxA, request(A, { limit: '10' }));
    assert.equal(first?.items.length, 10);
    assert.equal(first?.metadata.remainingItemCount, 15);
    // Changes after the first page must not show in the rest of this listing.
    await settle(up, cache);
    up.apply('DELETED', cm(`${A}-ns15`, 'c'));
    up.apply('ADDED', cm(`${A}-ns99`, 'new'));
    await eventually(async () => (await cache.list(ctxA, request(A)))?.items.length === 25 && (await cache.list(ctxA, request(A)))?.items.some((i) => i.metadata.name === 'new'), 'cache caught up');
    const seen = [...first!.items];
    let token = first!.metadata.continue;
    while (token) {
      const page = await cache.list(ctxA, request(A, { limit: '10', continue: token }));
      assert.ok(page);
      assert.equal(page.metadata.resourceVersion, first!.metadata.resourceVersion);
      seen.push(...page.items);
      token = page.metadata.continue;
    }
    assert.equal(seen.length, 25);
    assert.ok(seen.some((i) => i.metadata.namespace === 'ns15'));
    assert.ok(!seen.some((i) => i.metadata.name === 'new'));
  });

  it('answers 410 for a continue token older than the event ring', async () => {
    const small = createSharedCache(up, { ringCapacity: 2, consistencyWaitMs: 10 });
    try {
      for (let i = 0; i < 3; i++) up.apply('ADDED', cm(`${A}-n${i}`, 'c'));
      const first = await small.list(ctxA, request(A, { limit: '1' }));
      for (let i = 0; i < 3; i++) up.apply('MODIFIED', cm(`${A}-n${i}`, 'c', { v: '2' }));
      await eventually(async () => (await small.list(ctxA, request(A)))?.items[2]?.metadata.labels?.v === '2', 'caught up');
      await assert.rejects(small.list(ctxA, request(A, { limit: '1', continue: first!.metadata.continue! })),
        (err: unknown) => err instanceof ApiError && err.code === 410 && /too old to display a consistent list/.test(err.message));
    } finally {
      small.stop();
    }
  });

  it('a read that must be fresh: declined at once by a cache behind an upstream that does not bookmark on request', async () => {
    const patient = createSharedCache(up, { consistencyWaitMs: 5_000 });
    try {
      up.apply('ADDED', cm(`${A}-web`, 'a'));
      assert.ok(await patient.listText(ctxA, request(A), true), 'current: served');
      up.bump(); // a write to another resource: no event of this one will bring the cache there
      const started = Date.now();
      assert.equal(await patient.listText(ctxA, request(A), true), undefined);
      assert.ok(Date.now() - started < 1_000, 'no wait for progress this upstream never sends');
    } finally {
      patient.stop();
    }
  });

  it('waits for a newer resourceVersion, then answers 504 Too large resource version', async () => {
    up.apply('ADDED', cm(`${A}-web`, 'a'));
    await cache.list(ctxA, request(A));
    await assert.rejects(cache.list(ctxA, request(A, { resourceVersion: String(up.rv + 50) })),
      (err: unknown) => err instanceof ApiError && err.code === 504 && err.message === `Too large resource version: ${up.rv + 50}, current: ${up.rv}`);
  });

  it('watch: current objects as ADDED, then live events of the tenant only, selection enter and leave', async () => {
    up.apply('ADDED', cm(`${A}-web`, 'a', { app: 'x' }));
    const all = new Collector();
    const selected = new Collector();
    const stopAll = await cache.watch(ctxA, request(A, { watch: 'true' }), all);
    const stopSel = await cache.watch(ctxA, request(A, { watch: 'true', resourceVersion: '0' }, 'app=x'), selected);
    assert.ok(stopAll && stopSel);
    up.apply('ADDED', cm(`${B}-web`, 'theirs'));
    up.apply('ADDED', cm(`${A}-web`, 'event-like'));
    up.apply('MODIFIED', cm(`${A}-web`, 'a', { app: 'y' }));
    up.apply('MODIFIED', cm(`${A}-web`, 'a', { app: 'x' }));
    up.apply('DELETED', cm(`${A}-web`, 'a', { app: 'x' }));
    await eventually(async () => all.events.length >= 5 && selected.events.length >= 4, 'events');
    assert.deepEqual(all.names(), ['ADDED web/a', 'ADDED web/event-like', 'MODIFIED web/a', 'MODIFIED web/a', 'DELETED web/a']);
    assert.deepEqual(selected.names(), ['ADDED web/a', 'DELETED web/a', 'ADDED web/a', 'DELETED web/a']);
    // Leaving the selection: the last matching state, at the event's version.
    const left = selected.events[1]!;
    assert.equal(left.object.metadata.labels?.app, 'x');
    assert.equal(left.object.metadata.resourceVersion, String(up.rv - 2));
    stopAll!();
    stopSel!();
    assert.ok(all.ended && selected.ended);
    assert.equal(cache.stats().watchers, 0);
  });

  it('watch: resumes from a resourceVersion, and declines one older than the ring (the upstream may still have it)', async () => {
    const small = createSharedCache(up, { ringCapacity: 3, consistencyWaitMs: 10 });
    try {
      up.apply('ADDED', cm(`${A}-web`, 'a'));
      const list = await small.list(ctxA, request(A));
      const from = list!.metadata.resourceVersion!;
      up.apply('ADDED', cm(`${A}-web`, 'b'));
      up.apply('ADDED', cm(`${B}-web`, 'x'));
      await eventually(async () => (await small.list(ctxA, request(A)))?.items.length === 2, 'caught up');
      const resumed = new Collector();
      await small.watch(ctxA, request(A, { watch: 'true', resourceVersion: from }), resumed);
      assert.deepEqual(resumed.names(), ['ADDED web/b']);
      for (let i = 0; i < 4; i++) up.apply('ADDED', cm(`${B}-web`, `y${i}`));
      await eventually(async () => Number((await small.list(ctxA, request(A)))?.metadata.resourceVersion) === up.rv, 'caught up');
      // Older than the ring: declined with nothing sent, so the forwarder asks the upstream,
      // whose own history may still reach back (it answers 410 itself if not).
      const old = new Collector();
      assert.equal(await small.watch(ctxA, request(A, { watch: 'true', resourceVersion: from }), old), undefined);
      assert.equal(old.events.length, 0);
      assert.equal(old.ended, false);
      assert.equal(small.stats().watchers, 1, 'only the resumed watch is held');
    } finally {
      small.stop();
    }
  });

  it('watch: bookmarks carry the cache version, the watch ends at timeoutSeconds', async () => {
    const sink = new Collector();
    await cache.watch(ctxA, request(A, { watch: 'true', allowWatchBookmarks: 'true', timeoutSeconds: '1' }), sink);
    up.bump();
    up.bookmark();
    await eventually(async () => sink.ended, 'end at timeout', { timeoutMs: 3_000, intervalMs: 20 });
    const bookmarks = sink.events.filter((e) => e.type === 'BOOKMARK');
    assert.ok(bookmarks.length >= 1);
    assert.equal(bookmarks.at(-1)?.object.metadata.resourceVersion, String(up.rv));
    assert.equal(bookmarks[0]?.object.kind, 'ConfigMap');
  });

  it('watch: sendInitialEvents ends the initial state with an initial-events-end bookmark', async () => {
    up.apply('ADDED', cm(`${A}-web`, 'a'));
    const sink = new Collector();
    await cache.watch(ctxA, request(A, { watch: 'true', sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '' }), sink);
    assert.deepEqual(sink.events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
    assert.equal(sink.events[1]?.object.metadata.annotations?.['k8s.io/initial-events-end'], 'true');
  });

  it('watch: a consumer that cannot keep up is cut off', async () => {
    const sink = new Collector();
    await cache.watch(ctxA, request(A, { watch: 'true' }), sink);
    sink.accept = false;
    up.apply('ADDED', cm(`${A}-web`, 'a'));
    await eventually(async () => sink.ended, 'cut off');
    up.apply('ADDED', cm(`${A}-web`, 'b'));
    await settle(up, cache);
    assert.equal(sink.events.length, 1);
    assert.equal(cache.stats().watchers, 0);
  });

  it('many tenants share one upstream LIST and WATCH', async () => {
    const sinks: Collector[] = [];
    for (let i = 0; i < 50; i++) {
      const id = `t${String(i).padStart(5, '0')}`;
      const sink = new Collector();
      sinks.push(sink);
      await cache.watch({ id }, request(id, { watch: 'true' }), sink);
      up.apply('ADDED', cm(`${id}-ns`, 'c'));
    }
    await eventually(async () => sinks.every((s) => s.events.length === 1), 'each tenant sees its own object');
    assert.equal(up.watches, 1);
    assert.equal(up.lists, 1);
    assert.equal(cache.stats().watchers, 50);
  });

  it('ends its watches when the upstream expires its own (clients re-list, as with kube\'s watch cache), and declines resumption across the gap', async () => {
    up.apply('ADDED', cm(`${A}-web`, 'a'));
    const list = await cache.list(ctxA, request(A));
    const live = new Collector();
    await cache.watch(ctxA, request(A, { watch: 'true', resourceVersion: list!.metadata.resourceVersion! }), live);
    // A deletion the cache misses, then the upstream says its version is gone.
    up.objects.delete(`${A}-web/a`);
    up.history.length = 0;
    up.rv += 5;
    up.expireWatches();
    // kube's cacher terminates its watchers when its reflector must re-list: the client sees the
    // stream end and lists again, rather than a stream that silently skipped what it missed.
    await eventually(async () => live.ended, 'the tenant watch to end');
    assert.equal(live.events.some((e) => e.type === 'DELETED'), false, 'no event invented for the gap');
    await eventually(async () => (await cache.list(ctxA, request(A)))?.items.length === 0, 'a re-list without the deleted object');
    // The relist reset the ring: a resumption from before the gap is not the cache's to answer.
    const resumed = new Collector();
    assert.equal(await cache.watch(ctxA, request(A, { watch: 'true', resourceVersion: list!.metadata.resourceVersion! }), resumed), undefined);
    assert.equal(resumed.events.length, 0);
  });

  it('declines what it does not serve: an unknown resource, a field label it does not know', async () => {
    assert.equal(await cache.list(ctxA, { ...request(A), path: '/apis/x.example/v1/things' }), undefined);
    const q = request(A);
    q.query.set('fieldSelector', 'spec.unknown=1');
    assert.equal(await cache.list(ctxA, q), undefined);
  });

  it('stops an idle resource cache, and starts it again on demand', async () => {
    const idle = createSharedCache(up, { idleStopMs: 50, consistencyWaitMs: 10 });
    try {
      await idle.list(ctxA, request(A));
      assert.equal(idle.stats().resources, 1);
      await eventually(async () => idle.stats().resources === 0, 'idle stop', { timeoutMs: 2_000, intervalMs: 20 });
      assert.ok(await idle.list(ctxA, request(A)));
      assert.equal(up.watches >= 1, true);
    } finally {
      idle.stop();
    }
  });
});

/** Lets the fake upstream's stream reach the informer. */
async function settle(up: FakeUpstream, cache: SharedCache): Promise<void> {
  await eventually(async () => Number((await cache.list({ id: A }, request(A)))?.metadata.resourceVersion) === up.rv, 'settled');
}
