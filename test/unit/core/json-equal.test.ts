import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonEqual } from '../../../src/core/json-equal.ts';
import { stableStringify } from '../../../src/apiserver/registry/object-meta.ts';

describe('jsonEqual: equality as JSON, in place', () => {
  // The definition it replaced: both sides as key-sorted JSON text.
  const byText = (a: unknown, b: unknown): boolean => stableStringify(a) === stableStringify(b);
  const shuffled = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(shuffled);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, shuffled(x)]));
    return v;
  };

  it('agrees with comparing key-sorted JSON text, for any pair of JSON values', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(fc.property(json, json, (a, b) => jsonEqual(a, b) === byText(a, b)), { numRuns: 500 });
    fc.assert(fc.property(json, (a) => jsonEqual(a, shuffled(a)) && jsonEqual(shuffled(a), a)), { numRuns: 300 });
  });

  it('members set to undefined count as absent, key order does not count, arrays keep their order', () => {
    assert.ok(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(jsonEqual({ a: 1 }, { c: undefined, a: 1 }));
    assert.ok(jsonEqual({ x: { p: 1, q: [1, { r: 2, s: 3 }] } }, { x: { q: [1, { s: 3, r: 2 }], p: 1 } }));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
    assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: null }));
    assert.ok(!jsonEqual({ a: [] }, { a: {} }));
    assert.ok(!jsonEqual(null, {}));
    assert.ok(!jsonEqual('1', 1));
  });

  it('skip leaves top-level keys out', () => {
    assert.ok(jsonEqual({ a: 1, status: { x: 1 } }, { a: 1, status: { x: 2 } }, new Set(['status'])));
    assert.ok(!jsonEqual({ a: 1, status: { x: 1 } }, { a: 2, status: { x: 1 } }, new Set(['status'])));
  });
});
