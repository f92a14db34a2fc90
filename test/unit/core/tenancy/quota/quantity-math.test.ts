import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { add, compare, formatOf, formatQuantity, quantityOf, times, ZERO } from '../../../../../src/core/tenancy/quota/quantity-math.ts';

const q = (text: string) => {
  const v = quantityOf(text);
  assert.ok(v, text);
  return v;
};

describe('tenant quota: quantity math', () => {
  for (const [text, format, want] of [
    ['2', 'DecimalSI', '2'], ['500m', 'DecimalSI', '500m'], ['1.5', 'DecimalSI', '1500m'], ['0.1', 'DecimalSI', '100m'],
    ['1Gi', 'BinarySI', '1Gi'], ['1536Mi', 'BinarySI', '1536Mi'], ['64Mi', 'BinarySI', '64Mi'], ['1G', 'DecimalSI', '1G'],
    ['1000', 'BinarySI', '1k'], ['1500', 'BinarySI', '1500'], ['2k', 'DecimalSI', '2k'], ['0', 'DecimalSI', '0'], ['1u', 'DecimalSI', '1u'],
  ] as const) {
    it(`${text} prints as ${want} (${format})`, () => assert.equal(formatQuantity(q(text), format), want));
  }

  it('sums exactly: ten times 0.1 is 1', () => {
    let sum = ZERO;
    for (let i = 0; i < 10; i++) sum = add(sum, q('0.1'));
    assert.equal(compare(sum, q('1')), 0);
    assert.equal(formatQuantity(times(q('500m'), 3)), '1500m');
  });

  it('numbers are quantities; garbage is not', () => {
    assert.equal(compare(quantityOf(3) ?? ZERO, q('3')), 0);
    assert.equal(quantityOf('three'), undefined);
    assert.equal(quantityOf(undefined), undefined);
  });

  it('binary suffixes keep the binary format', () => {
    assert.equal(formatOf('8Gi'), 'BinarySI');
    assert.equal(formatOf('8G'), 'DecimalSI');
    assert.equal(formatOf(8), 'DecimalSI');
  });

  it('printing then parsing gives the same millis back (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom('DecimalSI', 'BinarySI'), (millis, format) => {
      const v = { num: BigInt(millis), den: 1000n };
      assert.equal(compare(q(formatQuantity(v, format as 'DecimalSI' | 'BinarySI')), v), 0);
    }));
  });

  it('compare is antisymmetric (property)', () => {
    fc.assert(fc.property(fc.integer(), fc.integer(), (a, b) => {
      const x = { num: BigInt(a), den: 7n };
      const y = { num: BigInt(b), den: 3n };
      assert.equal(compare(x, y), -compare(y, x));
    }));
  });
});
