// resource.Quantity as an exact rational, for the replica estimator. Karmada compares
// quantities exactly (allocatable − allocated − allocating, then Value() or MilliValue(),
// both rounding up), so floats are not good enough: "0.1" cpu must be exactly 100m.
// The parser is core/quantity.ts (the one grammar, also read as a float elsewhere).

import type { Rational } from '../../quantity.ts';

export { parseQuantity, type Rational } from '../../quantity.ts';

export function subtract(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

/** ceil(q × scale): Quantity.Value() with scale 1, MilliValue() with scale 1000. */
export function ceilScaled(q: Rational, scale: bigint): bigint {
  const n = q.num * scale;
  // bigint division truncates toward zero, which is already the ceiling for negatives.
  return n > 0n ? (n + q.den - 1n) / q.den : n / q.den;
}
