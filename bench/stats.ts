// Summaries of samples. Percentiles use the nearest-rank method: p99 of 5,000
// samples is the 4,950th smallest, an observed value, never an interpolation.
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  if (p <= 0 || p > 100) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[rank - 1] as number;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Milliseconds since `start` (a process.hrtime.bigint() reading). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
