import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { labelsInText } from '../../../../src/apiserver/store/labels-in-text.ts';

// Stored objects as the store writes them: JSON.stringify of anything object-shaped, metadata anywhere
// among the members, labels anywhere in metadata (or absent), values with quotes, backslashes and brackets.
const tricky = fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\"', '{', '}', '[', ']', ',', ':', '"labels":{}', '\\\\"'));
const labels = fc.dictionary(tricky, tricky, { maxKeys: 8 });
/** An object with `key` (when present) between other members, anywhere in member order. */
function withMember(others: fc.Arbitrary<unknown>, key: string, value: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  const rest = fc.dictionary(fc.string(), others, { maxKeys: 4 });
  return fc.tuple(rest, fc.option(value), rest).map(([before, v, after]) => {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(before)) if (k !== key) o[k] = x;
    if (v !== null) o[key] = v;
    for (const [k, x] of Object.entries(after)) if (!(k in o) && k !== key) o[k] = x;
    return o;
  });
}
const stored = withMember(fc.jsonValue({ maxDepth: 4 }), 'metadata', withMember(fc.jsonValue({ maxDepth: 3 }), 'labels', labels));

describe('labelsInText: metadata.labels from stored JSON text without parsing the rest', () => {
  it('answers what JSON.parse of the whole text has under metadata.labels ({} when none), at any indentation', () => {
    fc.assert(fc.property(stored, fc.constantFrom(undefined, 1, '\t'), (object, space) => {
      const text = JSON.stringify(object, null, space);
      const parsed = JSON.parse(text) as { metadata?: { labels?: Record<string, string> } };
      assert.deepEqual(labelsInText(text), parsed.metadata?.labels ?? {});
    }), { numRuns: 1000 });
  });

  it('agrees with JSON.parse for any code points (lone surrogates, escapes that spell "labels" or "metadata") and decoys in other members', () => {
    // r1's review: the text is JSON.stringify's (canonical escapes, no duplicate keys); a key is compared
    // decoded, so "\\u006cabels" in a value or a key cannot pass for labels, nor hide them.
    const any = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('labels', 'metadata', '\\u006cabels', '"labels":{"t":"x"}', '\ud800', '\udfff', 'tenancy.warren.dev/tenant'));
    const decoy = fc.dictionary(any, fc.oneof(any, fc.dictionary(any, any, { maxKeys: 3 })), { maxKeys: 4 });
    const meta = withMember(fc.oneof(decoy, any), 'labels', fc.dictionary(any, any, { maxKeys: 6 }));
    fc.assert(fc.property(withMember(fc.oneof(decoy, any), 'metadata', meta), (object) => {
      const text = JSON.stringify(object);
      const parsed = JSON.parse(text) as { metadata?: { labels?: Record<string, string> } };
      assert.deepEqual(labelsInText(text), parsed.metadata?.labels ?? {});
    }), { numRuns: 1000 });
  });

  it('reads the labels of a 1 MB ConfigMap with its data before its metadata', () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 9_000; i++) data[`d${String(i)}`] = `"{[x\\`.repeat(20);
    const text = JSON.stringify({ data, apiVersion: 'v1', metadata: { name: 'big', annotations: { a: '"labels":{"no":"x"}' }, labels: { app: 'shop', tier: '"' } } });
    assert.deepEqual(labelsInText(text), { app: 'shop', tier: '"' });
  });

  it('answers undefined, not a guess, for text that is not an object of the expected shape', () => {
    for (const text of ['[]', '"x"', '{"metadata":', '{"metadata":{"labels":[1]}}', '{"metadata":{"labels":"x"}}', '{"a" 1}', '']) {
      assert.equal(labelsInText(text), undefined, text);
    }
    assert.deepEqual(labelsInText('{"metadata":{"labels":null}}'), {});
  });
});
