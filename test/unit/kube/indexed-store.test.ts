import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IndexedStore } from '../../../src/kube/indexed-store.ts';

interface Obj { tags: string[] }
const byTag = (o: Obj): string[] => o.tags;

describe('IndexedStore', () => {
  it('agrees with a linear scan after any sequence of sets and deletes, whenever the index was added', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom('a', 'b', 'c', 'd'), tags: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom('a', 'b', 'c', 'd') }),
      fc.record({ kind: fc.constant('index' as const) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const store = new IndexedStore<Obj>();
      const model = new Map<string, Obj>();
      let indexed = false;
      for (const o of ops) {
        if (o.kind === 'set') {
          const obj = { tags: o.tags };
          assert.equal(store.set(o.key, obj), model.get(o.key));
          model.set(o.key, obj);
        } else if (o.kind === 'delete') {
          assert.equal(store.delete(o.key), model.get(o.key));
          model.delete(o.key);
        } else if (!indexed) {
          store.addIndex('tag', byTag);
          indexed = true;
        }
      }
      if (!indexed) store.addIndex('tag', byTag);
      for (const tag of ['x', 'y', 'z']) {
        const expected = [...model.values()].filter((v) => v.tags.includes(tag));
        assert.deepEqual(new Set(store.byIndex('tag', tag)), new Set(expected));
      }
      assert.deepEqual([...store.items.keys()].sort(), [...model.keys()].sort());
    }));
  });

  it('refuses an unknown or duplicate index', () => {
    const store = new IndexedStore<Obj>();
    assert.throws(() => store.byIndex('nope', 'x'), /no index "nope"/);
    store.addIndex('tag', byTag);
    assert.throws(() => store.addIndex('tag', byTag), /already exists/);
  });
});
