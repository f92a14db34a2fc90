// Observing the engine from outside: watches that record, per object name,
// the first event a predicate accepts. "Applied on a member" is the first
// ADDED of a Deployment the engine manages (label karmada.io/managed=true) in
// one namespace of that member. Times are process.hrtime readings in ms,
// comparable with the writer's.
import type { BenchClient } from './http-client.ts';

export interface Arrivals {
  /** First ADDED per object name, per member index. */
  at: Array<Map<string, number>>;
  /** Resolves when every name has arrived on every member, or rejects at the deadline. */
  waitForAll(names: readonly string[], timeoutMs: number): Promise<void>;
  close(): void;
}

export interface WatchedObject {
  metadata?: { name?: string };
  spec?: { clusters?: unknown[] };
}

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * How long the bench's own watches last: past the longest scenario cap (PROPAGATION_CAP_S), so that a
 * long run's arrivals are all seen (a fixed 900 s ended the watches of a 1,500 s run early: the pairs
 * applied after 900 s were counted as never applied).
 */
export const WATCH_TIMEOUT_S = Math.max(900, Number(process.env.PROPAGATION_CAP_S ?? 180) + 300);

/** Applied on members: the first ADDED of each managed Deployment in `namespace`. */
export function watchArrivals(members: readonly BenchClient[], namespace: string): Promise<Arrivals> {
  const path = `/apis/apps/v1/namespaces/${namespace}/deployments?watch=true&timeoutSeconds=${WATCH_TIMEOUT_S}&labelSelector=${encodeURIComponent('karmada.io/managed=true')}`;
  return watchFirst(members, path, (type) => type === 'ADDED');
}

/** The first event per object name that `accept` takes, on each of `clients`, all watching `path`. */
/** Streams every event of a watch to `on`, stamped with the chunk's arrival time (events are split on newlines). */
export async function streamWatchEvents<O>(client: BenchClient, path: string, on: (type: string, obj: O | undefined, t: number) => void, afterChunk?: () => void): Promise<() => void> {
  let buffer = '';
  const stream = await client.stream(path, (text) => {
    const t = nowMs();
    buffer += text;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() === '') continue;
      const event = JSON.parse(line) as { type: string; object?: O };
      on(event.type, event.object, t);
    }
    afterChunk?.();
  });
  if (stream.status !== 200) throw new Error(`watch ${path} answered ${stream.status}`);
  return stream.close;
}

export async function watchFirst(clients: readonly BenchClient[], path: string, accept: (type: string, obj: WatchedObject) => boolean): Promise<Arrivals> {
  const at = clients.map(() => new Map<string, number>());
  let wake: (() => void) | undefined;
  const closers = await Promise.all(clients.map(async (client, i) => {
    const seen = at[i] as Map<string, number>;
    return await streamWatchEvents<WatchedObject>(client, path, (type, obj, t) => {
      const name = obj?.metadata?.name;
      if (name && obj && !seen.has(name) && accept(type, obj)) seen.set(name, t);
    }, () => wake?.());
  }));
  return {
    at,
    async waitForAll(names, timeoutMs) {
      const deadline = nowMs() + timeoutMs;
      for (;;) {
        if (at.every((m) => names.every((n) => m.has(n)))) return;
        const left = deadline - nowMs();
        if (left <= 0) {
          const missing = at.reduce((sum, m) => sum + names.filter((n) => !m.has(n)).length, 0);
          throw new Error(`${missing} of ${names.length * at.length} (member, object) pairs not applied after ${(timeoutMs / 1000).toFixed(0)} s`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 500));
          wake = () => { clearTimeout(timer); wake = undefined; resolve(); };
        });
      }
    },
    close() { for (const c of closers) c(); },
  };
}
