// Requests to one server, shared fairly between tenants. At most `limit` run
// at once; the others wait in their tenant's line, and each freed slot goes to
// the next tenant in turn that has a request waiting. So a tenant with a
// thousand requests queued delays another tenant's request by at most the
// requests already running, not by its whole backlog (an HTTP agent's own
// queue is first come, first served). Keep `limit` at or below the client's
// socket count, so requests wait here and not in the agent.
export interface FairGate {
  /** Runs `task` once a slot is free and it is `key`'s turn; the slot is freed when it settles. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  running(): number;
  waiting(): number;
}

export function createFairGate(limit: number): FairGate {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`fair gate limit must be a positive integer, got ${limit}`);
  const lines = new Map<string, Array<() => void>>(); // key -> starts waiting, oldest first; a key is here only while it waits
  const turn: string[] = []; // keys with waiters, in the order their turns come
  let running = 0;
  let waiting = 0;

  const next = (): void => {
    while (running < limit && turn.length > 0) {
      const key = turn.shift() as string;
      const line = lines.get(key) as Array<() => void>;
      const start = line.shift() as () => void;
      waiting--;
      if (line.length > 0) turn.push(key); // back of the round
      else lines.delete(key);
      running++;
      start();
    }
  };

  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = (): void => {
          let settled: Promise<T>;
          try {
            settled = task();
          } catch (err) {
            settled = Promise.reject(err as Error);
          }
          settled.then(resolve, reject).finally(() => {
            running--;
            next();
          });
        };
        let line = lines.get(key);
        if (!line) {
          lines.set(key, (line = []));
          turn.push(key);
        }
        line.push(start);
        waiting++;
        next();
      });
    },
    running: () => running,
    waiting: () => waiting,
  };
}

