// Worker loops over a work queue: each takes one key at a time and calls
// reconcile; requeueAfterMs schedules the key again, a thrown error retries it
// after the key's backoff, success forgets that backoff.
import type { WorkQueue } from '../../workqueue/work-queue.ts';
import { levelled } from '../../observability/log-line.ts';

export interface ReconcileResult {
  requeueAfterMs?: number;
}

export interface Workers {
  stop(): void;
}

export function startWorkers(options: {
  name: string;
  queue: WorkQueue;
  count: number;
  reconcile: (key: string) => Promise<ReconcileResult | void>;
  log?: (line: string) => void;
}): Workers {
  const { queue } = options;
  const log = options.log ?? (() => undefined);
  let stopped = false;

  async function worker(): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined || stopped) return;
      try {
        const result = await options.reconcile(key);
        queue.forget(key);
        if (result?.requeueAfterMs !== undefined && !stopped) queue.addAfter(key, result.requeueAfterMs);
      } catch (err) {
        if (!stopped) {
          log(levelled('warn', `${options.name}: reconcile ${key} failed: ${err instanceof Error ? err.message : String(err)}`));
          queue.addRateLimited(key);
        }
      } finally {
        queue.done(key);
      }
    }
  }

  for (let i = 0; i < options.count; i++) void worker();
  return { stop: () => { stopped = true; } };
}
