import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createInterner } from '../../../../src/controllers/propagation/interned-strings.ts';

describe('interned strings (one copy of what the engine views repeat)', () => {
  it('hold each distinct string once', () => {
    const interner = createInterner();
    for (const s of ['Applied', 'True', 'Applied', 'abc123-karmada-es-member1', 'True']) assert.equal(interner.string(s), s);
    assert.equal(interner.size(), 3);
  });

  it('keep a "__proto__" key a key (a member status is anyone\'s text)', () => {
    const parsed = JSON.parse('{"status":{"__proto__":{"polluted":"yes"},"ok":"x"}}') as unknown;
    const out = createInterner().json(parsed);
    assert.deepEqual(Object.keys((out as { status: object }).status), ['__proto__', 'ok']);
    assert.equal(({} as { polluted?: string }).polluted, undefined);
    assert.deepEqual(out, parsed);
  });

  it('never change a value, whatever the bound (property)', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(fc.property(fc.array(json, { maxLength: 8 }), fc.integer({ min: 1, max: 5 }), (values, bound) => {
      const interner = createInterner(bound);
      for (const v of values) assert.deepEqual(interner.json(v), v);
      assert.ok(interner.size() <= bound, 'the table is dropped past its bound');
    }), { numRuns: 200 });
  });

  it('share one frozen copy of equal values, key order kept, "__proto__" a key', () => {
    const interner = createInterner();
    const a = interner.shared(JSON.parse('{"app":"web","tenant":"abc123","__proto__":{"x":1}}') as object);
    const b = interner.shared(JSON.parse('{"app":"web","tenant":"abc123","__proto__":{"x":1}}') as object);
    assert.equal(a, b, 'the second is the first');
    assert.ok(Object.isFrozen(a) && Object.isFrozen((a as Record<string, object>)['__proto__']), 'frozen all the way down');
    assert.throws(() => { (a as Record<string, string>).app = 'changed'; }, TypeError);
    assert.deepEqual(Object.keys(a), ['app', 'tenant', '__proto__']);
    assert.notEqual(interner.shared({ tenant: 'abc123', app: 'web' }), interner.shared({ app: 'web', tenant: 'abc123' }), 'another order is another text');
  });

  it('shared values equal what they stand for, whatever the bound (property)', () => {
    fc.assert(fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), fc.integer({ min: 1, max: 5 }), (values, bound) => {
      const interner = createInterner(bound);
      for (const v of [...values, ...values]) {
        const out = interner.shared(v);
        assert.deepEqual(out, v);
        assert.equal(JSON.stringify(out), JSON.stringify(v));
      }
      assert.ok(interner.size() <= 2 * bound, 'both tables are dropped past their bound');
    }), { numRuns: 200 });
  });

  it('keep no more text than their bound: a tenant\'s large values, new at each write, do not pile up (adversarial)', () => {
    // A policy's placement is every binding's: 1,000 rewrites of a 40 KB placement were 40 MB kept after their bindings moved on.
    const interner = createInterner(200_000, 400_000);
    const placement = (i: number): object => ({ clusterAffinity: { clusterNames: [`${'m'.repeat(2_000)}-${i}`] } });
    const first = interner.shared(placement(0));
    const firstName = interner.string(`${'n'.repeat(2_000)}-0`);
    for (let i = 1; i < 1_000; i++) {
      interner.shared(placement(i));
      interner.string(`${'n'.repeat(2_000)}-${i}`);
      assert.ok(interner.chars() <= 2 * 400_000, `${interner.chars()} characters held after ${i} writes`);
    }
    assert.notEqual(interner.shared(placement(0)), first, 'the first copy went with its table');
    assert.deepEqual(interner.shared(placement(0)), placement(0));
    assert.equal(interner.string(`${'n'.repeat(2_000)}-0`), firstName);
  });

  it('keep no value or string of a large part of the bound, and share it no more (one write cannot flush the table)', () => {
    const interner = createInterner(200_000, 128_000);
    const small = interner.shared({ app: 'web' });
    const big = { data: 'x'.repeat(1_000) };
    const copy = interner.shared(big);
    assert.ok(Object.isFrozen(copy), 'frozen as every view part');
    assert.deepEqual(copy, big);
    assert.notEqual(interner.shared(big), copy, 'not kept');
    assert.equal(interner.shared({ app: 'web' }), small, 'the small shared copy stays');
    assert.equal(interner.chars(), JSON.stringify({ app: 'web' }).length + 'web'.length, 'the small value and its string only');
  });

  it('copy a value too large to keep without interning its strings (one large status cannot fill the string table)', () => {
    const interner = createInterner(200_000, 128_000);
    // 300 short distinct strings, 2,700 characters of text: the value is not kept, so its strings must not be either.
    const big = JSON.parse(`{"__proto__":{"x":1},"items":${JSON.stringify(Array.from({ length: 300 }, (_, i) => `s${i}`))}}`) as Record<string, unknown>;
    const copy = interner.shared(big);
    assert.deepEqual(copy, big);
    assert.notEqual(copy, big, 'a copy: the caller\'s value is not frozen');
    assert.ok(!Object.isFrozen(big));
    assert.ok(Object.isFrozen(copy) && Object.isFrozen(copy.items), 'frozen to the leaves');
    assert.ok(Object.hasOwn(copy, '__proto__'), 'a "__proto__" key stays an own key');
    assert.equal(interner.size(), 0, 'nothing kept');
    assert.equal(interner.chars(), 0);
  });
});
