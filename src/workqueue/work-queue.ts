// A per-key work queue, as client-go's workqueue: a key waits at most once
// (dedup), is never handed to two workers at the same time (a key added while
// it is being processed is queued again when that ends), and failures come
// back after a per-key exponential backoff that success forgets. With
// `shardOf`, waiting keys are served round-robin by shard (tenant), so one
// tenant's burst does not delay another's key (sharded-fifo.ts).
import { Backoff, type BackoffOptions } from '../core/backoff.ts';
import { ShardedFifo } from './sharded-fifo.ts';

export interface WorkQueue {
  add(key: string): void;
  /** Adds the key after ms; an earlier pending delay for the same key wins. */
  addAfter(key: string, ms: number): void;
  /** Adds the key after its own backoff (a failed attempt). */
  addRateLimited(key: string): void;
  /** Resets the key's backoff (a successful attempt). */
  forget(key: string): void;
  /** The next key, or undefined once the queue is shut down. */
  get(): Promise<string | undefined>;
  /** Marks the key processed; re-queues it if it was added meanwhile. */
  done(key: string): void;
  /** Keys waiting (not processing, not delayed). */
  length(): number;
  shutDown(): void;
}

export interface WorkQueueOptions {
  backoff?: BackoffOptions;
  /** The fairness shard of a key (e.g. its tenant); default: one shard. */
  shardOf?: (key: string) => string;
}

export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const backoffOptions: BackoffOptions = { initialMs: 200, maxMs: 60_000, ...options.backoff };
  const queue = new ShardedFifo(options.shardOf ?? (() => ''));
  const waiting = new Set<string>(); // in `queue`
  const processing = new Set<string>();
  const dirty = new Set<string>(); // added while processing
  const delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  const backoffs = new Map<string, Backoff>();
  const getters: ((key: string | undefined) => void)[] = [];
  let down = false;

  function add(key: string): void {
    if (down) return;
    if (processing.has(key)) {
      dirty.add(key);
      return;
    }
    if (waiting.has(key)) return;
    const getter = getters.shift();
    if (getter) {
      processing.add(key);
      getter(key);
      return;
    }
    waiting.add(key);
    queue.push(key);
  }

  function addAfter(key: string, ms: number): void {
    if (down) return;
    if (ms <= 0) {
      add(key);
      return;
    }
    const at = Date.now() + ms;
    const pending = delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      delayed.delete(key);
      add(key);
    }, ms);
    delayed.set(key, { at, timer });
  }

  return {
    add,
    addAfter,
    addRateLimited(key) {
      let b = backoffs.get(key);
      if (!b) backoffs.set(key, (b = new Backoff(backoffOptions)));
      addAfter(key, b.next());
    },
    forget(key) {
      backoffs.delete(key);
    },
    get() {
      if (down) return Promise.resolve(undefined);
      const key = queue.shift();
      if (key !== undefined) {
        waiting.delete(key);
        processing.add(key);
        return Promise.resolve(key);
      }
      return new Promise((resolve) => getters.push(resolve));
    },
    done(key) {
      processing.delete(key);
      if (dirty.delete(key)) add(key);
    },
    length: () => queue.length,
    shutDown() {
      down = true;
      for (const { timer } of delayed.values()) clearTimeout(timer);
      delayed.clear();
      for (const getter of getters.splice(0)) getter(undefined);
    },
  };
}
