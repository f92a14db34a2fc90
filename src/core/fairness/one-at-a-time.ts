// At most one holder per key at a time, the rest waiting in arrival order:
// the gateway's bound on large request bodies per tenant (ADR 0026). Pure
// bookkeeping, no I/O; the release is idempotent so a response that both
// finishes and closes gives the turn back once.

export type Release = () => void;

export class OneAtATime {
  private readonly queues = new Map<string, Array<() => void>>();

  /** Resolves with this key's turn; call the release when done. */
  acquire(key: string): Promise<Release> {
    const queue = this.queues.get(key);
    if (!queue) {
      this.queues.set(key, []);
      return Promise.resolve(this.releaser(key));
    }
    return new Promise((resolve) => queue.push(() => resolve(this.releaser(key))));
  }

  /**
   * As acquire, unless `maxWaiting` already wait behind this key's holder: then undefined at once
   * (the caller refuses the request, as kube's APF does when a queue is full).
   */
  tryAcquire(key: string, maxWaiting: number): Promise<Release> | undefined {
    return this.queues.has(key) && this.waiting(key) >= maxWaiting ? undefined : this.acquire(key);
  }

  /** Keys with a holder (for tests and metrics). */
  busyKeys(): number {
    return this.queues.size;
  }

  /** Waiters behind the holder of `key`. */
  waiting(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  private releaser(key: string): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const queue = this.queues.get(key);
      const next = queue?.shift();
      if (next) next();
      else this.queues.delete(key);
    };
  }
}
