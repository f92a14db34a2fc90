// The work loop of the apiserver's own controllers (GC, namespace termination,
// CRD establishment, quota, namespace bootstrap), on the one work queue
// (src/workqueue): store events arrive synchronously inside a write, so a key
// is queued and worked on a later turn of the event loop, never re-entering
// the store from within its own listener. A key queued many times before its
// turn is worked once; one worker works keys one at a time. A failure is
// reported and not retried (the next event for the key queues it again).
import { createWorkQueue } from '../../workqueue/work-queue.ts';

export interface WorkLoop<K> {
  enqueue(key: K): void;
  stop(): void;
  /** Resolves once nothing is queued or being worked on (for tests). */
  idle(): Promise<void>;
}

export function startWorkLoop<K extends string>(work: (key: K) => void | Promise<void>, onError: (err: unknown, key: K) => void): WorkLoop<K> {
  const queue = createWorkQueue();
  // Keys queued and not yet taken by the worker (the queue may hand a key over before the worker runs).
  const waiting = new Set<K>();
  let busy = false;
  let stopped = false;
  const waiters: Array<() => void> = [];
  const settle = (): void => {
    if (waiting.size === 0 && !busy) for (const resolve of waiters.splice(0)) resolve();
  };

  async function worker(): Promise<void> {
    for (;;) {
      const wasIdle = queue.length() === 0;
      const key = (await queue.get()) as K | undefined;
      if (key === undefined || stopped) return;
      busy = true;
      // Woken by an enqueue inside a store write: work on a later turn, after that write returned.
      if (wasIdle) await new Promise((resolve) => setImmediate(resolve));
      waiting.delete(key);
      try {
        if (!stopped) await work(key);
      } catch (err) {
        onError(err, key);
      } finally {
        busy = false;
        queue.done(key);
      }
      settle();
    }
  }

  void worker();
  return {
    enqueue(key) {
      if (stopped) return;
      waiting.add(key);
      queue.add(key);
    },
    stop() {
      stopped = true;
      queue.shutDown();
      waiting.clear();
      for (const resolve of waiters.splice(0)) resolve();
    },
    idle() {
      if (stopped || (waiting.size === 0 && !busy)) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
