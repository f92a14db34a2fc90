// A tiny work loop for the apiserver's own controllers: store events arrive
// synchronously inside a write, so work is queued and run on a later tick, never
// re-entering the store from within its own listener.
export interface WorkLoop<K> {
  enqueue(key: K): void;
  stop(): void;
  /** Resolves once the queue is empty (for tests). */
  idle(): Promise<void>;
}

export function startWorkLoop<K>(work: (key: K) => void | Promise<void>, onError: (err: unknown, key: K) => void): WorkLoop<K> {
  const pending = new Set<K>();
  let scheduled = false;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const waiters: Array<() => void> = [];
  const drain = async (): Promise<void> => {
    scheduled = false;
    const batch = [...pending];
    pending.clear();
    for (const key of batch) {
      if (stopped) return;
      try {
        await work(key);
      } catch (err) {
        onError(err, key);
      }
    }
    if (pending.size === 0) for (const resolve of waiters.splice(0)) resolve();
  };
  return {
    enqueue(key) {
      if (stopped) return;
      pending.add(key);
      if (!scheduled) {
        scheduled = true;
        // drain() catches every key's failure itself: nothing is left to reject here.
        running = running.then(() => new Promise<void>((resolve) => setImmediate(() => void drain().then(resolve))));
      }
    },
    stop() {
      stopped = true;
      pending.clear();
      for (const resolve of waiters.splice(0)) resolve();
    },
    idle() {
      if (pending.size === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
