// The requests a gateway is serving, so stop() can drain them: requests in
// flight may finish until a deadline; long-running ones (watches) are ended
// cleanly at once through the hook their writer registered (the chunked
// response gets its final chunk, and client-go re-lists, against another
// replica); whatever is still open at the deadline is cut. A long-running
// response without a hook (a log stream) is cut at once: it would never
// finish by itself, and ending it under a writer that still pipes into it
// would be a write after end. (A watch admitted just before the drain may
// register its hook a moment later: it is given until the next poll.)
import type { ServerResponse } from 'node:http';
import { drainHookOf } from './drain-hook.ts';

export interface InFlight {
  /** Counts a response until it closes; called again once the request is known long-running (a watch). */
  track(res: ServerResponse, longRunning: boolean): void;
  readonly draining: boolean;
  /** Ends long-running responses, waits for the others; resolves with how many were cut at the deadline. */
  drain(deadlineMs: number): Promise<number>;
  count(): { requests: number; longRunning: number };
}

const HOOK_POLL_MS = 50;

export function createInFlight(): InFlight {
  const open = new Map<ServerResponse, { longRunning: boolean }>();
  const ended = new WeakSet<ServerResponse>();
  const idleWaiters = new Set<() => void>();
  let draining = false;
  const endLongRunning = (cutHookless: boolean): void => {
    for (const [res, entry] of open) {
      if (!entry.longRunning || ended.has(res)) continue;
      const end = drainHookOf(res);
      if (!end && !cutHookless) continue;
      ended.add(res);
      if (end) end();
      else res.destroy();
    }
  };
  return {
    track(res, longRunning) {
      const entry = open.get(res);
      if (entry) {
        entry.longRunning = longRunning;
        // Known long-running during the drain: ended at the next poll like any watch.
        return;
      }
      if (res.writableFinished || res.destroyed) return;
      open.set(res, { longRunning });
      res.once('close', () => {
        open.delete(res);
        if (open.size === 0) for (const wake of idleWaiters) wake();
      });
    },
    get draining() {
      return draining;
    },
    async drain(deadlineMs) {
      draining = true;
      endLongRunning(false);
      if (open.size === 0) return 0;
      let polls = 0;
      const poll = setInterval(() => endLongRunning(++polls > 1), HOOK_POLL_MS);
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        idleWaiters.add(resolve);
        timer = setTimeout(resolve, deadlineMs);
      });
      clearInterval(poll);
      clearTimeout(timer);
      idleWaiters.clear();
      const left = open.size;
      for (const res of open.keys()) res.destroy();
      return left;
    },
    count() {
      let longRunning = 0;
      for (const entry of open.values()) if (entry.longRunning) longRunning++;
      return { requests: open.size - longRunning, longRunning };
    },
  };
}
