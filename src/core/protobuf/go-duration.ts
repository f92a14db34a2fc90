// metav1.Duration travels as int64 nanoseconds on the wire and as Go's
// time.Duration.String() text in JSON ("1h0m0s", "1.5s", "300ms"), so both
// directions must follow Go's formatting and parsing exactly.
import { badRequest } from '../api-error.ts';

const NS = { ns: 1n, us: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n } as const;

/** Digits of v / 10^prec with trailing zeros (and a bare dot) dropped, as Go's fmtFrac. */
function frac(v: bigint, prec: number): string {
  const scale = 10n ** BigInt(prec);
  const whole = v / scale;
  const rest = (v % scale).toString().padStart(prec, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : `${whole}`;
}

export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  let text: string;
  if (u < NS.us) text = `${u}ns`;
  else if (u < NS.ms) text = `${frac(u, 3)}µs`;
  else if (u < NS.s) text = `${frac(u / NS.us, 3)}ms`;
  else {
    const secs = frac(u % NS.m, 9);
    const totalMin = u / NS.m;
    const h = totalMin / 60n;
    const m = totalMin % 60n;
    text = h > 0n ? `${h}h${m}m${secs}s` : m > 0n ? `${m}m${secs}s` : `${secs}s`;
  }
  return neg ? `-${text}` : text;
}

const UNIT: Record<string, bigint> = { ns: NS.ns, us: NS.us, 'µs': NS.us, 'μs': NS.us, ms: NS.ms, s: NS.s, m: NS.m, h: NS.h };

/** time.ParseDuration: "[-+]?(\d*\.?\d*unit)+" or "0"; fractions are truncated to nanoseconds. */
export function parseGoDuration(text: string): bigint {
  const fail = () => badRequest(`time: invalid duration "${text}"`);
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) { neg = s[0] === '-'; s = s.slice(1); }
  if (s === '0') return 0n;
  if (s === '') throw fail();
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/u;
  while (s) {
    const m = part.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw fail();
    const unit = UNIT[m[3] as string] as bigint;
    const digits = m[2] ?? '';
    total += BigInt(m[1] || '0') * unit + (digits ? (BigInt(digits) * unit) / 10n ** BigInt(digits.length) : 0n);
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}
