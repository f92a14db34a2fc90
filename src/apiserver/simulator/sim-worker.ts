// The simulator's one worker over the shared work queue (src/workqueue). Its
// reconcilers are synchronous, so two things the engine's async workers get
// for free are done here: a key that wakes the worker is reconciled on a
// later turn of the event loop (never inside the write whose watch event
// queued it, and after the other timers of this turn), and after every BATCH
// keys the worker yields a turn, so a backlog of thousands of pods does not
// starve the apiserver's sockets and timers. A failure comes back after the key's
// backoff; a 409 Conflict comes back soon (the cached writer has already
// refreshed the object) and is logged only when it keeps happening.
import { ApiError } from '../../core/api-error.ts';
import type { WorkQueue } from '../../workqueue/work-queue.ts';
import { levelled } from '../../observability/log-line.ts';

const BATCH = 200;
const QUIET_CONFLICTS = 5;

export interface SimWorker {
  stop(): void;
}

function isConflict(err: unknown): boolean {
  return err instanceof ApiError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists');
}

export function startSimWorker(queue: WorkQueue, handle: (key: string) => void, log: (line: string) => void): SimWorker {
  const conflicts = new Map<string, number>();
  let stopped = false;

  function failed(key: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    if (!isConflict(err)) {
      log(levelled('warn', `simulator: reconcile ${key} failed: ${message}`));
      queue.addRateLimited(key);
      return;
    }
    const attempts = (conflicts.get(key) ?? 0) + 1;
    conflicts.set(key, attempts);
    if (attempts > QUIET_CONFLICTS) log(levelled('warn', `simulator: reconcile ${key} failed (attempt ${attempts}): ${message}`));
    queue.addAfter(key, Math.min(5 * attempts, 100));
  }

  async function work(): Promise<void> {
    for (let n = 1; ; n++) {
      const idle = queue.length() === 0;
      const key = await queue.get();
      if (key === undefined || stopped) return;
      // Woken by an add: run on the next turn, after the timers and I/O of this one (every cache's relist
      // after expired watches is one timer each; a reconcile between two of them would read stale caches).
      if (idle) await new Promise((resolve) => setImmediate(resolve));
      if (stopped) return;
      try {
        handle(key);
        queue.forget(key);
        conflicts.delete(key);
      } catch (err) {
        failed(key, err);
      } finally {
        queue.done(key);
      }
      if (n % BATCH === 0 && queue.length() > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  void work();
  return {
    stop() {
      stopped = true;
      queue.shutDown();
    },
  };
}
