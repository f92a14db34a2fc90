// A coalescing work queue: a key queued many times before it is processed is
// reconciled once. Keys are processed in batches off the event loop, so a watch
// event delivered inside one of our own writes never re-enters a reconcile.
// Failures retry with backoff; a 409 Conflict retries fast (the writer has already
// refreshed the cached object).
import { ApiError } from '../../core/api-error.ts';

const BATCH = 200;
const MAX_BACKOFF_MS = 5_000;

export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private scheduled: NodeJS.Immediate | undefined;
  private stopped = false;

  constructor(
    private readonly handler: (key: string) => void,
    private readonly log: (line: string) => void,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    this.schedule();
  }

  /** Queues the key after `ms`; an earlier pending delay for the same key wins. */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    const at = Date.now() + ms;
    const existing = this.delayed.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, timer });
  }

  stop(): void {
    this.stopped = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.pending.clear();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      this.drain();
    });
  }

  private drain(): void {
    let done = 0;
    for (const key of this.pending) {
      if (this.stopped || done >= BATCH) break;
      this.pending.delete(key);
      done++;
      this.run(key);
    }
    if (this.pending.size > 0) this.schedule();
  }

  private run(key: string): void {
    try {
      this.handler(key);
      this.failures.delete(key);
    } catch (err) {
      const attempts = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, attempts);
      const isConflict = err instanceof ApiError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists');
      const delay = isConflict ? Math.min(5 * attempts, 100) : Math.min(50 * 2 ** attempts, MAX_BACKOFF_MS);
      if (!isConflict || attempts > 5) this.log(`simulator: reconcile ${key} failed (attempt ${attempts}): ${(err as Error).message}`);
      this.addAfter(key, delay);
    }
  }
}
