import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { applyMergePatch } from '../../../../src/core/patch/merge-patch.ts';

describe('applyMergePatch', () => {
  // RFC 7386 appendix A test cases (those with an object patch).
  const cases: Array<{ name: string; doc: any; patch: any; want: any }> = [
    { name: 'replace value', doc: { a: 'b' }, patch: { a: 'c' }, want: { a: 'c' } },
    { name: 'add key', doc: { a: 'b' }, patch: { b: 'c' }, want: { a: 'b', b: 'c' } },
    { name: 'null deletes', doc: { a: 'b' }, patch: { a: null }, want: {} },
    { name: 'null deletes one of two', doc: { a: 'b', b: 'c' }, patch: { a: null }, want: { b: 'c' } },
    { name: 'array replaces object', doc: { a: ['b'] }, patch: { a: 'c' }, want: { a: 'c' } },
    { name: 'object replaces array', doc: { a: 'c' }, patch: { a: ['b'] }, want: { a: ['b'] } },
    { name: 'nested merge with delete', doc: { a: { b: 'c' } }, patch: { a: { b: 'd', c: null } }, want: { a: { b: 'd' } } },
    { name: 'arrays replace, never merge', doc: { a: [{ b: 'c' }] }, patch: { a: [1] }, want: { a: [1] } },
    { name: 'nulls inside new object are dropped', doc: { e: null }, patch: { a: 1 }, want: { e: null, a: 1 } },
    { name: 'new nested object drops its nulls', doc: {}, patch: { a: { bb: { ccc: null } } }, want: { a: { bb: {} } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.doc);
      assert.deepEqual(applyMergePatch(c.doc, c.patch), c.want);
      assert.deepEqual(c.doc, before);
    });
  }

  it('a non-object patch is a 400 (kube: "Invalid JSON Patch")', () => {
    for (const p of [[1], 'x', 3, null]) {
      assert.throws(() => applyMergePatch({ a: 1 }, p), (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === 'Invalid JSON Patch');
    }
  });

  // Bodies come from JSON.parse (own "__proto__" keys, Object prototypes), so
  // generated values go through JSON too.
  const doc = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }))
    .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
  it('property: an empty patch is the identity', () => {
    fc.assert(fc.property(doc, (d) => { assert.deepEqual(applyMergePatch(d, {}), d); }));
  });
  it('property: applying the same patch twice equals applying it once', () => {
    fc.assert(fc.property(doc, doc, (d, p) => {
      const once = applyMergePatch(d, p);
      assert.deepEqual(applyMergePatch(once, p), once);
    }));
  });
});
