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

/** Applied on members: the first ADDED of each managed Deployment in `namespace`. */
export function watchArrivals(members: readonly BenchClient[], namespace: string): Promise<Arrivals> {
  const path = `/apis/apps/v1/namespaces/${namespace}/deployments?watch=true&timeoutSeconds=900&labelSelector=${encodeURIComponent('karmada.io/managed=true')}`;
  return watchFirst(members, path, (type) => type === 'ADDED');
}

/** The first event per object name that `accept` takes, on each of `clients`, all watching `path`. */
export async function watchFirst(clients: readonly BenchClient[], path: string, accept: (type: string, obj: WatchedObject) => boolean): Promise<Arrivals> {
  const at = clients.map(() => new Map<string, number>());
  let wake: (() => void) | undefined;
  const closers = await Promise.all(clients.map(async (client, i) => {
    let buffer = '';
    const seen = at[i] as Map<string, number>;
    const stream = await client.stream(path, (text) => {
      const t = nowMs();
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim() === '') continue;
        const event = JSON.parse(line) as { type: string; object?: WatchedObject };
        const name = event.object?.metadata?.name;
        if (name && event.object && !seen.has(name) && accept(event.type, event.object)) seen.set(name, t);
      }
      wake?.();
    });
    if (stream.status !== 200) throw new Error(`watch ${path} on client ${i + 1} answered ${stream.status}`);
    return stream.close;
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
