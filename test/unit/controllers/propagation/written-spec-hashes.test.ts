import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createWrittenSpecHashes } from '../../../../src/controllers/propagation/written-spec-hashes.ts';

describe('written spec hashes (the engine\'s own Work writes)', () => {
  it('gives the hash back only for the event at the version the write was stored at, once', () => {
    const memo = createWrittenSpecHashes();
    memo.remember('ns/w', '7', 'h7');
    assert.equal(memo.take('ns/w', '7'), 'h7');
    assert.equal(memo.take('ns/w', '7'), undefined, 'used up: a second event at that version is hashed');
  });

  it('an event at another version (someone else\'s write, or one that beat the answer) gets nothing and retires the entry', () => {
    const memo = createWrittenSpecHashes();
    memo.remember('ns/w', '7', 'h7');
    assert.equal(memo.take('ns/w', '8'), undefined);
    assert.equal(memo.take('ns/w', '7'), undefined);
    assert.equal(memo.take('ns/other', '7'), undefined);
  });

  it('keeps nothing without a resourceVersion, and drops everything past its bound', () => {
    const memo = createWrittenSpecHashes(2);
    memo.remember('ns/a', undefined, 'h');
    assert.equal(memo.size(), 0);
    memo.remember('ns/a', '1', 'ha');
    memo.remember('ns/b', '2', 'hb');
    memo.remember('ns/c', '3', 'hc');
    assert.equal(memo.take('ns/a', '1'), undefined);
    assert.equal(memo.take('ns/c', '3'), 'hc');
  });

  it('property: a hash is only ever handed out for the exact (key, version) last remembered for that key', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('remember' as const), key: fc.constantFrom('a/x', 'a/y', 'b/x'), rv: fc.constantFrom('1', '2', '3'), hash: fc.string({ maxLength: 4 }) }),
      fc.record({ kind: fc.constant('take' as const), key: fc.constantFrom('a/x', 'a/y', 'b/x'), rv: fc.constantFrom('1', '2', '3', undefined) }));
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const memo = createWrittenSpecHashes();
      const model = new Map<string, { rv: string; hash: string }>();
      for (const o of ops) {
        if (o.kind === 'remember') {
          memo.remember(o.key, o.rv, o.hash);
          model.set(o.key, { rv: o.rv, hash: o.hash });
        } else {
          const entry = model.get(o.key);
          model.delete(o.key);
          assert.equal(memo.take(o.key, o.rv), entry !== undefined && entry.rv === o.rv ? entry.hash : undefined);
        }
      }
    }));
  });
});
