// One behaviour suite for every Store implementation (memory, durable), so both
// keep the same contract. Each test gets a fresh store from `make`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Store, StoreEvent } from '../../../../src/apiserver/store/store.ts';

export type MakeStore = (options?: { maxEvents?: number }) => Store;

export function cm(namespace: string, name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, ...(labels ? { labels } : {}) }, data };
}

const key = (namespace: string, name: string) => ({ resource: 'configmaps', namespace, name });

function assertApiError(fn: () => unknown, code: number, reason: string, message?: string | RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.equal(err.reason, reason);
    if (typeof message === 'string') assert.equal(err.message, message);
    else if (message) assert.match(err.message, message);
    return true;
  });
}

const names = (items: KubeObject[]): string[] => items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`);

export function describeStoreBehaviour(label: string, make: MakeStore): void {
  describe(`${label}: CRUD`, () => {
    it('starts empty at revision 0 and stamps resourceVersion from 1', async () => {
      const store = make();
      assert.equal(store.revision(), 0);
      const input = cm('ns', 'a');
      const created = store.create(key('ns', 'a'), input);
      assert.equal(created.metadata.resourceVersion, '1');
      assert.equal(input.metadata.resourceVersion, undefined, 'the input is not mutated');
      assert.equal(store.revision(), 1);
      assert.deepEqual(store.get(key('ns', 'a')), created);
      await store.close();
    });

    it('update bumps the revision; a stale resourceVersion is a 409 Conflict', async () => {
      const store = make();
      store.create(key('ns', 'a'), cm('ns', 'a'));
      const updated = store.update(key('ns', 'a'), cm('ns', 'a', { k: 'v' }), { resourceVersion: '1' });
      assert.equal(updated.metadata.resourceVersion, '2');
      assertApiError(() => store.update(key('ns', 'a'), cm('ns', 'a'), { resourceVersion: '1' }), 409, 'Conflict',
        'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
      assert.equal(store.revision(), 2, 'a refused write does not consume a revision');
      await store.close();
    });

    it('NotFound, AlreadyExists, and uid / resourceVersion preconditions on delete', async () => {
      const store = make();
      assertApiError(() => store.get(key('ns', 'x')) ?? store.update(key('ns', 'x'), cm('ns', 'x')), 404, 'NotFound', 'configmaps "x" not found');
      assertApiError(() => store.delete({ resource: 'deployments.apps', namespace: 'ns', name: 'd' }), 404, 'NotFound', 'deployments.apps "d" not found');
      const obj = cm('ns', 'a');
      obj.metadata.uid = 'u1';
      store.create(key('ns', 'a'), obj);
      assertApiError(() => store.create(key('ns', 'a'), cm('ns', 'a')), 409, 'AlreadyExists', 'configmaps "a" already exists');
      assertApiError(() => store.delete(key('ns', 'a'), { uid: 'other' }), 409, 'Conflict', /Precondition failed: UID in precondition: other, UID in object meta: u1/);
      assertApiError(() => store.delete(key('ns', 'a'), { resourceVersion: '7' }), 409, 'Conflict', /Precondition failed: ResourceVersion in precondition: 7, ResourceVersion in object meta: 1/);
      const deleted = store.delete(key('ns', 'a'), { uid: 'u1', resourceVersion: '1' });
      assert.equal(deleted.metadata.resourceVersion, '2', 'the last state carries the deletion revision');
      assert.equal(store.get(key('ns', 'a')), undefined);
      store.create(key('ns', 'a'), cm('ns', 'a'));
      await store.close();
    });

    it('keeps resources and namespaces apart', async () => {
      const store = make();
      store.create(key('ns', 'a'), cm('ns', 'a'));
      store.create({ resource: 'secrets', namespace: 'ns', name: 'a' }, cm('ns', 'a'));
      store.create(key('other', 'a'), cm('other', 'a'));
      store.create({ resource: 'namespaces', namespace: '', name: 'ns' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
      assert.equal(store.list('configmaps').items.length, 2);
      assert.equal(store.list('secrets').items.length, 1);
      assert.equal(store.list('namespaces').items.length, 1);
      assert.equal(store.list('pods').items.length, 0);
      assert.ok(store.get({ resource: 'namespaces', namespace: '', name: 'ns' }));
      await store.close();
    });
  });

  describe(`${label}: list and paging`, () => {
    it('orders by namespace, then name ("a" before "a-b")', async () => {
      const store = make();
      for (const [ns, n] of [['a-b', 'x'], ['a', 'z'], ['b', 'a'], ['a', 'b']] as const) store.create(key(ns, n), cm(ns, n));
      assert.deepEqual(names(store.list('configmaps').items), ['a/b', 'a/z', 'a-b/x', 'b/a']);
      assert.deepEqual(names(store.list('configmaps', { namespace: 'a' }).items), ['a/b', 'a/z']);
      assert.deepEqual(names(store.list('configmaps', { namespace: 'a-b' }).items), ['a-b/x']);
      await store.close();
    });

    it('pages are full after filtering, with continueAfter and remaining', async () => {
      const store = make();
      for (let i = 0; i < 10; i++) store.create(key('ns', `o${i}`), cm('ns', `o${i}`, {}, { even: String(i % 2 === 0) }));
      const even = (o: KubeObject): boolean => o.metadata.labels?.even === 'true';
      const p1 = store.list('configmaps', { limit: 2, filter: even });
      assert.deepEqual(names(p1.items), ['ns/o0', 'ns/o2']);
      assert.equal(p1.continueAfter, 'ns/o2');
      assert.equal(p1.remaining, undefined, 'no count with a filter, as kube');
      const p3 = store.list('configmaps', { limit: 2, filter: even, after: 'ns/o6' });
      assert.deepEqual(names(p3.items), ['ns/o8']);
      assert.equal(p3.continueAfter, undefined, 'no continue when no further match exists');
      const unfiltered = store.list('configmaps', { limit: 3 });
      assert.equal(unfiltered.continueAfter, 'ns/o2');
      assert.equal(unfiltered.remaining, 7);
      const exact = store.list('configmaps', { limit: 10 });
      assert.equal(exact.continueAfter, undefined);
      await store.close();
    });

    it('atRevision reads a consistent snapshot across creates, updates and deletes', async () => {
      const store = make();
      for (const n of ['a', 'b', 'c', 'd']) store.create(key('ns', n), cm('ns', n, { v: '1' }));
      const first = store.list('configmaps', { limit: 2 });
      assert.equal(first.revision, 4);
      store.delete(key('ns', 'c'));
      store.update(key('ns', 'd'), cm('ns', 'd', { v: '2' }));
      store.create(key('ns', 'bb'), cm('ns', 'bb'));
      store.delete(key('ns', 'a'));
      const rest = store.list('configmaps', { after: first.continueAfter ?? '', atRevision: first.revision });
      assert.deepEqual(names(rest.items), ['ns/c', 'ns/d']);
      assert.deepEqual(rest.items.map((o) => o.data), [{ v: '1' }, { v: '1' }]);
      assert.equal(rest.revision, 4);
      assert.deepEqual(names(store.list('configmaps', { atRevision: 4 }).items), ['ns/a', 'ns/b', 'ns/c', 'ns/d']);
      assert.deepEqual(names(store.list('configmaps').items), ['ns/b', 'ns/bb', 'ns/d']);
      await store.close();
    });

    it('a snapshot older than the retained history is 410 Expired; a future one is 504', async () => {
      const store = make({ maxEvents: 3 });
      for (let i = 0; i < 6; i++) store.create(key('ns', `o${i}`), cm('ns', `o${i}`));
      assert.equal(store.oldestWatchableRevision(), 3);
      assertApiError(() => store.list('configmaps', { atRevision: 2 }), 410, 'Expired');
      assert.equal(store.list('configmaps', { atRevision: 3 }).items.length, 3);
      assertApiError(() => store.list('configmaps', { atRevision: 99 }), 504, 'Timeout', /Too large resource version: 99, current: 6/);
      await store.close();
    });
  });

  describe(`${label}: watch`, () => {
    it('replays history after fromRevision, then streams live, in order, with previous', async () => {
      const store = make();
      store.create(key('ns', 'a'), cm('ns', 'a'));
      store.create({ resource: 'secrets', namespace: 'ns', name: 's' }, cm('ns', 's'));
      store.update(key('ns', 'a'), cm('ns', 'a', { k: 'v' }));
      const seen: StoreEvent[] = [];
      const stop = store.watch('configmaps', 1, (e) => seen.push(e));
      store.delete(key('ns', 'a'));
      stop();
      store.create(key('ns', 'b'), cm('ns', 'b'));
      assert.deepEqual(seen.map((e) => [e.type, e.revision, e.object.metadata.resourceVersion]), [['MODIFIED', 3, '3'], ['DELETED', 4, '4']]);
      assert.deepEqual(seen[1]?.previous?.data, { k: 'v' });
      assert.equal(seen[1]?.previous?.metadata.resourceVersion, '3');
      const all: number[] = [];
      store.watch(undefined, 0, (e) => all.push(e.revision))();
      assert.deepEqual(all, [1, 2, 3, 4, 5]);
      await store.close();
    });

    it('410 Expired below the retained history', async () => {
      const store = make({ maxEvents: 2 });
      for (let i = 0; i < 5; i++) store.create(key('ns', `o${i}`), cm('ns', `o${i}`));
      assertApiError(() => store.watch('configmaps', 1, () => undefined), 410, 'Expired', 'too old resource version: 1 (3)');
      const got: number[] = [];
      store.watch('configmaps', 3, (e) => got.push(e.revision))();
      assert.deepEqual(got, [4, 5]);
      await store.close();
    });

    it('a throwing listener does not break writes or other watchers; nested writes keep order', async () => {
      const store = make();
      const order: string[] = [];
      store.watch('configmaps', 0, () => { throw new Error('boom'); });
      store.watch('configmaps', 0, (e) => {
        order.push(`w1:${e.revision}`);
        // A controller writing from inside its handler: the event it causes comes after this one, for everyone.
        if (e.revision === 1) store.create(key('ns', 'nested'), cm('ns', 'nested'));
      });
      store.watch('configmaps', 0, (e) => order.push(`w2:${e.revision}`));
      store.create(key('ns', 'a'), cm('ns', 'a'));
      assert.equal(store.revision(), 2);
      assert.deepEqual(order.filter((s) => s.startsWith('w1')), ['w1:1', 'w1:2']);
      assert.deepEqual(order.filter((s) => s.startsWith('w2')), ['w2:1', 'w2:2']);
      await store.close();
    });

    it('a watch from a future revision waits for it', async () => {
      const store = make();
      const got: number[] = [];
      store.watch('configmaps', 2, (e) => got.push(e.revision));
      for (let i = 0; i < 4; i++) store.create(key('ns', `o${i}`), cm('ns', `o${i}`));
      assert.deepEqual(got, [3, 4]);
      await store.close();
    });
  });
}
