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
});
