// resource.Quantity as an exact rational, for the replica estimator. Karmada compares
// quantities exactly (allocatable − allocated − allocating, then Value() or MilliValue(),
// both rounding up), so floats are not good enough: "0.1" cpu must be exactly 100m.
// src/apiserver has a float parser for quota checks; core may not import it.

/** num/den with den > 0. */
export interface Rational {
  num: bigint;
  den: bigint;
}

const DECIMAL_EXPONENT: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENT: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const QUANTITY = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?[0-9]+))?$/;
// kube rejects absurd exponents too; the bound keeps bigint powers cheap.
const MAX_EXPONENT = 64;

/** The exact value of a quantity string, or undefined when kube would reject its syntax. */
export function parseQuantity(text: string): Rational | undefined {
  const m = QUANTITY.exec(text.trim());
  if (!m) return undefined;
  const [intPart = '', fraction = ''] = (m[2] ?? '').split('.');
  let exp10 = -fraction.length;
  let exp2 = 0;
  if (m[4] !== undefined) exp10 += Number(m[4]);
  else if (m[3] !== undefined && m[3] in BINARY_EXPONENT) exp2 = BINARY_EXPONENT[m[3]] ?? 0;
  else exp10 += DECIMAL_EXPONENT[m[3] ?? ''] ?? 0;
  if (Math.abs(exp10) > MAX_EXPONENT) return undefined;
  let num = BigInt(`${intPart || '0'}${fraction}`) * 2n ** BigInt(exp2);
  if (m[1] === '-') num = -num;
  return exp10 >= 0 ? { num: num * 10n ** BigInt(exp10), den: 1n } : { num, den: 10n ** BigInt(-exp10) };
}

export function subtract(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

/** ceil(q × scale): Quantity.Value() with scale 1, MilliValue() with scale 1000. */
export function ceilScaled(q: Rational, scale: bigint): bigint {
  const n = q.num * scale;
  // bigint division truncates toward zero, which is already the ceiling for negatives.
  return n > 0n ? (n + q.den - 1n) / q.den : n / q.den;
}
