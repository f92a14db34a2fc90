// The one Quantity grammar, read exactly and as a float: both readings accept the
// same strings and agree on the value (the float within rounding).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseQuantity, quantityNumber } from '../../../src/core/quantity.ts';

const suffix = fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'e3', 'E-2', 'e+1');
const mantissa = fc.tuple(fc.constantFrom('', '-', '+'), fc.nat({ max: 99_999 }), fc.option(fc.nat({ max: 999 }), { nil: undefined }))
  .map(([sign, int, frac]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}`);

describe('core/quantity: one grammar, two readings', () => {
  const cases: Array<[string, number | undefined]> = [
    ['1', 1], ['500m', 0.5], ['1.5G', 1.5e9], ['10Gi', 10 * 2 ** 30], ['1e3', 1000], ['.5', 0.5], ['-2k', -2000],
    ['+5', 5], [' 3 ', 3], ['1.', 1], ['lots', undefined], ['1Kb', undefined], ['', undefined], ['1e', undefined],
  ];
  for (const [text, value] of cases) {
    it(`reads ${JSON.stringify(text)} as ${String(value)}`, () => {
      assert.equal(quantityNumber(text), value);
      assert.equal(parseQuantity(text) === undefined, value === undefined);
    });
  }

  it('a finite number passes through the float reading; anything else is refused', () => {
    assert.equal(quantityNumber(2.5), 2.5);
    assert.equal(quantityNumber(Number.NaN), undefined);
    assert.equal(quantityNumber(null), undefined);
  });

  it('the exact and the float reading agree on every quantity', () => {
    fc.assert(fc.property(mantissa, suffix, (m, s) => {
      const text = `${m}${s}`;
      const exact = parseQuantity(text);
      const float = quantityNumber(text);
      assert.ok(exact !== undefined && float !== undefined, text);
      const asFloat = Number(exact.num) / Number(exact.den);
      assert.ok(Math.abs(asFloat - float) <= Math.abs(float) * 1e-12 + 1e-15, `${text}: ${asFloat} vs ${float}`);
    }));
  });
});
