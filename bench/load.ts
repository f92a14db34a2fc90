// Driving load: N workers pulling request numbers off one counter until `total`
// are done, each timed. Errors fail the bench loudly: a fast error is not a result.
import { msSince } from './stats.ts';

export interface LoadResult {
  /** Per-request latency in ms, in completion order. */
  latencies: number[];
  elapsedMs: number;
  perSecond: number;
}

export async function runConcurrent(concurrency: number, total: number, task: (i: number) => Promise<void>): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  const start = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      const t = process.hrtime.bigint();
      await task(i);
      latencies.push(msSince(t));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const elapsedMs = msSince(start);
  return { latencies, elapsedMs, perSecond: (total / elapsedMs) * 1000 };
}

/** Throws unless the reply has one of the expected statuses, quoting the body. */
export function expectStatus(reply: { status: number; body: string }, ...ok: number[]): void {
  if (!ok.includes(reply.status)) throw new Error(`unexpected HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
}
