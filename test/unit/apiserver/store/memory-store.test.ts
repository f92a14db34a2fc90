import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { MemoryStore } from '../../../../src/apiserver/store/memory-store.ts';
import { isJsonStore } from '../../../../src/apiserver/store/json-store.ts';
import { compareKeys } from '../../../../src/apiserver/store/object-key.ts';
import { cm, describeStoreBehaviour } from './store-behaviour.ts';

describeStoreBehaviour('MemoryStore', (options) => new MemoryStore({
  onListenerError: () => undefined,
  ...(options?.maxEvents ? { history: { maxEvents: options.maxEvents } } : {}),
}));

describe('MemoryStore specifics', () => {
  it('storedText: what create and update returned, as stored (the write\'s answer); nothing for any other object', () => {
    const store = new MemoryStore();
    const key = { resource: 'configmaps', namespace: 'ns', name: 'a' };
    const created = store.create(key, cm('ns', 'a', { k: 'v' }));
    assert.equal(store.storedText(created), store.getJson(key));
    const updated = store.update(key, cm('ns', 'a', { k: 'w' }));
    assert.equal(store.storedText(updated), store.getJson(key));
    assert.equal(store.storedText(updated), JSON.stringify(updated));
    assert.notEqual(store.storedText(created), store.storedText(updated));
    assert.equal(store.storedText(store.get(key)!), undefined);
    assert.equal(store.storedText({ ...updated }), undefined);
  });

  it('serves JSON text equal to JSON.stringify of what get/list return', () => {
    const store = new MemoryStore();
    assert.ok(isJsonStore(store));
    store.create({ resource: 'configmaps', namespace: 'ns', name: 'a' }, cm('ns', 'a', { k: 'v' }));
    const json = store.getJson({ resource: 'configmaps', namespace: 'ns', name: 'a' });
    assert.equal(json, JSON.stringify(store.get({ resource: 'configmaps', namespace: 'ns', name: 'a' })));
    assert.deepEqual(store.listJson('configmaps').items, store.list('configmaps').items.map((o) => JSON.stringify(o)));
  });

  it('drops history older than maxAgeMs, moving the oldest watchable revision', () => {
    let now = 0;
    const store = new MemoryStore({ history: { maxAgeMs: 1000, now: () => now } });
    store.create({ resource: 'configmaps', namespace: 'ns', name: 'a' }, cm('ns', 'a'));
    now = 500;
    store.create({ resource: 'configmaps', namespace: 'ns', name: 'b' }, cm('ns', 'b'));
    assert.equal(store.oldestWatchableRevision(), 0);
    now = 1200;
    store.create({ resource: 'configmaps', namespace: 'ns', name: 'c' }, cm('ns', 'c'));
    assert.equal(store.oldestWatchableRevision(), 1);
  });

  it('a returned object can be mutated by its caller without touching the store', () => {
    const store = new MemoryStore();
    const got = store.create({ resource: 'configmaps', namespace: 'ns', name: 'a' }, cm('ns', 'a', { k: 'v' }));
    (got.data as Record<string, string>).k = 'changed';
    const read = store.get({ resource: 'configmaps', namespace: 'ns', name: 'a' });
    assert.deepEqual(read?.data, { k: 'v' });
  });

  it('snapshot paging equals the plain list at that revision, for random histories', () => {
    const op = fc.record({ kind: fc.constantFrom('put', 'put', 'del'), ns: fc.constantFrom('a', 'a-b', 'b'), name: fc.constantFrom('x', 'y', 'z', 'w') });
    fc.assert(fc.property(fc.array(op, { maxLength: 30 }), fc.array(op, { maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (before, after, limit) => {
      const store = new MemoryStore();
      const run = (ops: typeof before): void => {
        for (const o of ops) {
          const k = { resource: 'configmaps', namespace: o.ns, name: o.name };
          const exists = store.get(k) !== undefined;
          if (o.kind === 'del') { if (exists) store.delete(k); } else if (exists) store.update(k, cm(o.ns, o.name, { r: String(store.revision()) })); else store.create(k, cm(o.ns, o.name));
        }
      };
      run(before);
      const expected = store.listJson('configmaps').items;
      const at = store.revision();
      run(after);
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const page = store.listJson('configmaps', { limit, atRevision: at, ...(cursor !== undefined ? { after: cursor } : {}) });
        paged.push(...page.items);
        cursor = page.continueAfter;
      } while (cursor !== undefined);
      assert.deepEqual(paged, expected);
    }));
  });

  it('compareKeys orders by namespace first', () => {
    const keys = ['a-b/x', 'a/z', 'b/a', 'a/b', '/n', 'a0/a'];
    assert.deepEqual([...keys].sort(compareKeys), ['/n', 'a/b', 'a/z', 'a-b/x', 'a0/a', 'b/a']);
  });
});

describe('MemoryStore LIST fast path', () => {
  // Its speed is measured by `npm run bench`; here only that it serves exactly what list() does.
  it('listJson items are the JSON text of the objects list() returns, page for page', () => {
    const store = new MemoryStore();
    for (let i = 0; i < 1_000; i++) {
      store.create({ resource: 'configmaps', namespace: `ns-${i % 7}`, name: `cm-${i}` }, cm(`ns-${i % 7}`, `cm-${i}`, { pad: 'x'.repeat(100) }));
    }
    let after: string | undefined;
    for (let page = 0; page < 4; page++) {
      const options = { limit: 300, ...(after ? { after } : {}) };
      const objects = store.list('configmaps', options);
      const texts = store.listJson('configmaps', options);
      assert.deepEqual(texts.items.map((t) => JSON.parse(t) as KubeObject), objects.items);
      assert.equal(texts.continueAfter, objects.continueAfter);
      after = objects.continueAfter;
    }
    assert.equal(after, undefined);
  });
});
