// The engine's own writes, matched with their watch events, so an echo does
// not wake the reconciler that made it. A Work the executor just created or
// marked Applied, the member copy it just applied, the binding or template
// status it just set: each comes back as an event with the resourceVersion the
// write answered with, and reconciling again on it finds nothing to do (a
// whole pass over every cluster, about half the executor's passes). Karmada
// filters the same events by kind (its binding controllers ignore Work creates
// and status-only updates); here the filter is exact: an event with any other
// resourceVersion (someone else's edit, a member's status moving, a deletion)
// still wakes the key.
//
// The echo may arrive before the write's answer (the embedded apiserver sends
// the watch event first): an event for a key with a write in flight is held
// until that write ends, then dropped if it was the write's own, else delivered.
import type { KubeObject } from '../../core/types.ts';
import type { UpstreamResponse } from '../../kube/upstream.ts';

export interface EchoRecord {
  /** The engine starts writing `key`; every begin is followed by one end. */
  begin(key: string): void;
  /** The write ended: with the upstream's answer, or undefined if it failed. */
  end(key: string, result: KubeObject | undefined): void;
  /** An ADDED or MODIFIED event for `key`: `wake` runs now, later (held), or never (an echo). */
  route(key: string, obj: KubeObject, wake: () => void): void;
  /** A deletion: nothing of the key is awaited any more. */
  forget(key: string): void;
  /** Answers still awaiting their echo (tests). */
  size(): number;
}

interface Entry {
  inFlight: number;
  /** resourceVersions the engine's answered writes produced, not yet seen as events. */
  answered: string[];
  held: Array<{ rv: string; wake: () => void }>;
}

/** An echo that raced ahead of its answer is never consumed: the oldest entries go first past this bound. */
const MAX_ENTRIES = 50_000;

export function createEchoRecord(maxEntries = MAX_ENTRIES): EchoRecord {
  const entries = new Map<string, Entry>();
  const entryOf = (key: string): Entry => {
    let e = entries.get(key);
    if (!e) {
      e = { inFlight: 0, answered: [], held: [] };
      entries.set(key, e);
      if (entries.size > maxEntries) {
        for (const [k, old] of entries) {
          if (old.inFlight > 0) continue;
          entries.delete(k);
          break;
        }
      }
    }
    return e;
  };
  const settle = (key: string, e: Entry): void => {
    if (e.inFlight === 0 && e.answered.length === 0 && e.held.length === 0) entries.delete(key);
  };
  return {
    begin(key) {
      entryOf(key).inFlight++;
    },
    end(key, result) {
      const e = entries.get(key);
      if (!e) return;
      e.inFlight = Math.max(0, e.inFlight - 1);
      const rv = result?.metadata.resourceVersion;
      const held = e.held;
      e.held = [];
      let consumed = false;
      for (const h of held) {
        if (!consumed && rv !== undefined && h.rv === rv) consumed = true; // its own echo: dropped
        else if (e.inFlight > 0) e.held.push(h); // may be another write's echo
        else h.wake();
      }
      if (rv !== undefined && !consumed) e.answered = [...e.answered.slice(-3), rv];
      settle(key, e);
    },
    route(key, obj, wake) {
      const e = entries.get(key);
      const rv = obj.metadata.resourceVersion;
      if (!e || rv === undefined) {
        wake();
        return;
      }
      const at = e.answered.indexOf(rv);
      if (at >= 0) {
        e.answered.splice(at, 1);
        settle(key, e);
        return;
      }
      if (e.inFlight > 0) {
        e.held.push({ rv, wake });
        return;
      }
      wake();
    },
    forget(key) {
      const e = entries.get(key);
      if (!e) return;
      entries.delete(key);
      for (const h of e.held) h.wake();
    },
    size: () => entries.size,
  };
}

/** Sends the engine's write of `key`: the echo of a 2xx answer will wake nothing. */
export async function ownWrite<T>(echoes: EchoRecord, key: string, send: () => Promise<UpstreamResponse<T>>): Promise<UpstreamResponse<T>> {
  echoes.begin(key);
  let res: UpstreamResponse<T> | undefined;
  try {
    res = await send();
    return res;
  } finally {
    echoes.end(key, res && res.status >= 200 && res.status < 300 ? (res.body as KubeObject | undefined) : undefined);
  }
}

// Keys, one space of names per kind of write.
export const workEchoKey = (namespace: string, name: string): string => `work|${namespace}/${name}`;
export const bindingStatusEchoKey = (namespace: string, name: string): string => `binding-status|${namespace}/${name}`;
export const templateStatusEchoKey = (resource: { group: string; resource: string }, namespace: string, name: string): string =>
  `template-status|${resource.group}/${resource.resource}|${namespace}/${name}`;
export const memberEchoKey = (cluster: string, resource: { group: string; resource: string }, namespace: string, name: string): string =>
  `member|${cluster}|${resource.group}/${resource.resource}|${namespace}/${name}`;
