// Exact quantity sums for the tenant-wide quota, on the scheduler's rational
// parser (core/propagation/scheduler/quantity.ts): one parser for core, so
// "0.1" cpu is exactly 100m and ten of them are exactly 1, never 0.9999.
// Printing follows resource.Quantity's canonical form, because refusals quote
// quantities in kube's words: cpu "2" or "1500m", memory "1536Mi" or "1G".
import { parseQuantity, type Rational } from '../../propagation/scheduler/quantity.ts';

export type { Rational };

export const ZERO: Rational = { num: 0n, den: 1n };

/** A quantity from an object field (string or number); undefined when kube would reject it. */
export function quantityOf(value: unknown): Rational | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return parseQuantity(String(value));
  return typeof value === 'string' ? parseQuantity(value) : undefined;
}

export function add(a: Rational, b: Rational): Rational {
  if (a.den === b.den) return { num: a.num + b.num, den: a.den };
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

export function times(a: Rational, n: number): Rational {
  return { num: a.num * BigInt(Math.max(0, Math.trunc(n))), den: a.den };
}

/** -1, 0 or 1 as a <, =, > b. */
export function compare(a: Rational, b: Rational): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export type QuantityFormat = 'DecimalSI' | 'BinarySI';

/** The format kube keeps for a quantity written this way: binary suffixes stay binary. */
export function formatOf(text: unknown): QuantityFormat {
  return typeof text === 'string' && /[KMGTPE]i$/.test(text.trim()) ? 'BinarySI' : 'DecimalSI';
}

const BINARY = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL: Array<[bigint, string]> = [[10n ** 18n, 'E'], [10n ** 15n, 'P'], [10n ** 12n, 'T'], [10n ** 9n, 'G'], [10n ** 6n, 'M'], [10n ** 3n, 'k']];
const DECIMAL_SMALL: Array<[bigint, string]> = [[1000n, 'm'], [1_000_000n, 'u'], [1_000_000_000n, 'n']];

/**
 * resource.Quantity.String(): the largest suffix that keeps an integer mantissa.
 * BinarySI falls back to decimal for values below 1024 or not whole (as kube does);
 * sub-unit values are printed in m, u or n, rounded up to nanos.
 */
export function formatQuantity(q: Rational, format: QuantityFormat = 'DecimalSI'): string {
  const sign = q.num < 0n ? '-' : '';
  const num = q.num < 0n ? -q.num : q.num;
  if (num % q.den !== 0n) {
    for (const [scale, suffix] of DECIMAL_SMALL) {
      if ((num * scale) % q.den === 0n) return `${sign}${(num * scale) / q.den}${suffix}`;
    }
    return `${sign}${(num * 1_000_000_000n + q.den - 1n) / q.den}n`;
  }
  const whole = num / q.den;
  if (whole === 0n) return '0';
  if (format === 'BinarySI' && whole >= 1024n) {
    let value = whole;
    let i = 0;
    while (i < BINARY.length - 1 && value % 1024n === 0n) {
      value /= 1024n;
      i++;
    }
    return `${sign}${value}${BINARY[i] ?? ''}`;
  }
  for (const [scale, suffix] of DECIMAL) {
    if (whole % scale === 0n) return `${sign}${whole / scale}${suffix}`;
  }
  return `${sign}${whole}`;
}
