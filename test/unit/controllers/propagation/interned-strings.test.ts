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
});
