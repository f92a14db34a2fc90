// resource.Quantity: the one parser (issue 17; there were three). One grammar,
// read two ways: exactly, as a rational (the scheduler's replica estimator and
// the tenant quota compare quantities as Karmada and kube do, so "0.1" cpu must
// be exactly 100m), and as a float, where a rough value is enough (storage
// sizes in validation, ResourceQuota hard limits in the embedded apiserver,
// member capacity summaries).

/** num/den with den > 0. */
export interface Rational {
  num: bigint;
  den: bigint;
}

const DECIMAL_EXPONENT: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENT: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const QUANTITY = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?[0-9]+))?$/;
const FACTOR: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};
// kube rejects absurd exponents too; the bound keeps bigint powers cheap (exact form only).
const MAX_EXPONENT = 64;

/** A quantity as written: sign, the decimal mantissa, and its suffix or decimal exponent. */
interface QuantityParts {
  negative: boolean;
  intPart: string;
  fraction: string;
  suffix: string;
  exponent: number | undefined;
}

function parseParts(text: string): QuantityParts | undefined {
  const m = QUANTITY.exec(text.trim());
  if (!m) return undefined;
  const [intPart = '', fraction = ''] = (m[2] ?? '').split('.');
  return { negative: m[1] === '-', intPart, fraction, suffix: m[3] ?? '', exponent: m[4] === undefined ? undefined : Number(m[4]) };
}

/** The exact value of a quantity string, or undefined when kube would reject its syntax. */
export function parseQuantity(text: string): Rational | undefined {
  const p = parseParts(text);
  if (!p) return undefined;
  let exp10 = -p.fraction.length;
  let exp2 = 0;
  if (p.exponent !== undefined) exp10 += p.exponent;
  else if (p.suffix in BINARY_EXPONENT) exp2 = BINARY_EXPONENT[p.suffix] ?? 0;
  else exp10 += DECIMAL_EXPONENT[p.suffix] ?? 0;
  if (Math.abs(exp10) > MAX_EXPONENT) return undefined;
  let num = BigInt(`${p.intPart || '0'}${p.fraction}`) * 2n ** BigInt(exp2);
  if (p.negative) num = -num;
  return exp10 >= 0 ? { num: num * 10n ** BigInt(exp10), den: 1n } : { num, den: 10n ** BigInt(-exp10) };
}

/**
 * A quantity as a float (a number passes through when finite), or undefined when it
 * is not one. Cores for cpu, bytes for memory and storage, a count for the rest.
 */
export function quantityNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const p = parseParts(value);
  if (!p) return undefined;
  const n = Number(`${p.negative ? '-' : ''}${p.intPart}${p.fraction ? `.${p.fraction}` : ''}` || '0');
  if (p.exponent !== undefined) return n * 10 ** p.exponent;
  return n * (FACTOR[p.suffix] ?? 1);
}
