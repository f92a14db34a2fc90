import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SortedKeys } from '../../../../src/apiserver/store/sorted-keys.ts';
import { compareKeys } from '../../../../src/apiserver/store/object-key.ts';

describe('SortedKeys', () => {
  it('behaves as a sorted set under inserts, removes and ranged iteration (across chunk splits)', () => {
    const key = fc.tuple(fc.constantFrom('', 'a', 'a-b', 'b'), fc.integer({ min: 0, max: 3000 })).map(([ns, i]) => `${ns}/k${i}`);
    const op = fc.tuple(fc.constantFrom('insert', 'insert', 'insert', 'remove'), key);
    fc.assert(fc.property(fc.array(op, { maxLength: 4000 }), key, fc.boolean(), (ops, start, exclusive) => {
      const keys = new SortedKeys();
      const model = new Set<string>();
      for (const [kind, k] of ops) {
        if (kind === 'insert') { keys.insert(k); model.add(k); } else { keys.remove(k); model.delete(k); }
      }
      const sorted = [...model].sort(compareKeys);
      assert.equal(keys.length, model.size);
      assert.deepEqual([...keys.from()], sorted);
      assert.deepEqual([...keys.from(start, exclusive)], sorted.filter((k) => (exclusive ? compareKeys(k, start) > 0 : compareKeys(k, start) >= 0)));
    }), { numRuns: 60 });
  });
});
