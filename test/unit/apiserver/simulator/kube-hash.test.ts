import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, computeHash, fnv32a, randomSuffix, safeEncode, SAFE_ALPHABET } from '../../../../src/apiserver/simulator/kube-hash.ts';

const safe = new RegExp(`^[${SAFE_ALPHABET}]+$`);

describe('kube-hash', () => {
  const fnvCases = [
    { name: 'empty input is the offset basis', input: '', want: 0x811c9dc5 },
    { name: '"a" (published FNV-1a test vector)', input: 'a', want: 0xe40c292c },
    { name: '"foobar" (published FNV-1a test vector)', input: 'foobar', want: 0xbf9cf968 },
  ];
  for (const c of fnvCases) it(`fnv32a: ${c.name}`, () => assert.equal(fnv32a(new TextEncoder().encode(c.input)), c.want));

  it('safeEncode maps each character onto the vowel-free alphabet, as rand.SafeEncodeString', () => {
    // '0' is 48, 48 % 27 = 21 → '4'; '9' is 57, 57 % 27 = 3 → 'f'.
    assert.equal(safeEncode('09'), '4f');
  });

  it('hashes are deterministic, safe, and independent of key order', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()), (obj) => {
      const reversed = Object.fromEntries(Object.entries(obj).reverse());
      const hash = computeHash(obj);
      assert.equal(hash, computeHash(reversed));
      assert.match(hash, safe);
      assert.ok(hash.length <= 10);
    }));
  });

  it('a collision count changes the hash; zero is the same as none', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 1000 }), (value, count) => {
      assert.notEqual(computeHash(value, count), computeHash(value));
      assert.equal(computeHash(value, 0), computeHash(value));
    }));
  });

  it('canonicalJson sorts keys and drops undefined fields', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: undefined, c: [2, undefined] } }), '{"a":{"c":[2,null]},"b":1}');
  });

  it('randomSuffix gives 5 safe characters', () => {
    for (let i = 0; i < 50; i++) assert.match(randomSuffix(), /^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});
