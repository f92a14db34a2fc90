// At most one holder per key at a time, the rest waiting in arrival order:
// the gateway's bound on large request bodies per tenant (ADR 0026). Pure
// bookkeeping, no I/O; the release is idempotent so a response that both
// finishes and closes gives the turn back once.

export type Release = () => void;

/** A waiter, and whether it stopped waiting (its client left): it then takes no place in the queue. */
interface Waiter {
  grant: () => void;
  gone: () => boolean;
}

export class OneAtATime {
  private readonly queues = new Map<string, Waiter[]>();

  /**
   * Resolves with this key's turn; call the release when done. `gone`, when it answers true, says the
   * waiter left: it no longer counts as waiting, and its turn passes to the next (it never resolves).
   */
  acquire(key: string, gone: () => boolean = () => false): Promise<Release> {
    const queue = this.queues.get(key);
    if (!queue) {
      this.queues.set(key, []);
      return Promise.resolve(this.releaser(key));
    }
    return new Promise((resolve) => queue.push({ grant: () => resolve(this.releaser(key)), gone }));
  }

  /**
   * As acquire, unless `maxWaiting` already wait behind this key's holder: then undefined at once
   * (the caller refuses the request, as kube's APF does when a queue is full).
   */
  tryAcquire(key: string, maxWaiting: number, gone?: () => boolean): Promise<Release> | undefined {
    return this.queues.has(key) && this.waiting(key) >= maxWaiting ? undefined : this.acquire(key, gone);
  }

  /** Whether `key` has a holder (a new acquire would wait). */
  held(key: string): boolean {
    return this.queues.has(key);
  }

  /** Keys with a holder (for tests and metrics). */
  busyKeys(): number {
    return this.queues.size;
  }

  /** Waiters behind the holder of `key` (those gone not counted). */
  waiting(key: string): number {
    const queue = this.queues.get(key);
    if (!queue) return 0;
    this.dropGone(queue);
    return queue.length;
  }

  private dropGone(queue: Waiter[]): void {
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]?.gone()) queue.splice(i, 1);
  }

  private releaser(key: string): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const queue = this.queues.get(key);
      if (queue) this.dropGone(queue);
      const next = queue?.shift();
      if (next) next.grant();
      else this.queues.delete(key);
    };
  }
}
