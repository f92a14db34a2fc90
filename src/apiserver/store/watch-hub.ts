// Delivers history events to watchers, synchronously and in revision order.
//
// Traps handled here:
// - a listener may write to the store while being called; the nested write must
//   not overtake events still being delivered, so delivery is a single pump that
//   nested calls only extend (each watcher tracks the last revision it has seen);
// - a new watcher replays history through the same pump, so a write made during
//   its replay is neither lost nor delivered twice;
// - a throwing listener is reported and skipped, never allowed to break a write.
import type { KubeObject } from '../../core/types.ts';
import type { StoreEvent } from './store.ts';
import type { EventHistory, HistoryEvent } from './event-history.ts';

interface Watcher {
  resource: string | undefined;
  listener: (event: StoreEvent) => void;
  last: number;
  active: boolean;
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private pumping = false;
  // Within one pump, watchers of the same event share one parsed copy (callers never mutate it).
  private readonly parsed = new Map<number, StoreEvent>();

  constructor(
    private readonly history: EventHistory,
    private readonly currentRevision: () => number,
    private readonly onListenerError: (err: unknown) => void,
  ) {}

  get count(): number {
    return this.watchers.size;
  }

  add(resource: string | undefined, fromRevision: number, listener: (event: StoreEvent) => void): () => void {
    const watcher: Watcher = { resource, listener, last: fromRevision, active: true };
    this.watchers.add(watcher);
    this.pump();
    return () => {
      watcher.active = false;
      this.watchers.delete(watcher);
    };
  }

  /** Brings every watcher up to the current revision. Re-entrant calls return at once: the outer loop continues. */
  pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      let behind = true;
      while (behind) {
        behind = false;
        for (const w of this.watchers) {
          while (w.active && w.last < this.currentRevision()) {
            const e = this.history.firstAfter(w.last);
            if (!e) { w.last = this.currentRevision(); break; }
            w.last = e.revision;
            if (w.resource === undefined || w.resource === e.resource) this.deliver(w, e);
          }
        }
        // A listener may have written after its own watcher was served but before others: go round again.
        for (const w of this.watchers) if (w.active && w.last < this.currentRevision()) behind = true;
      }
    } finally {
      this.pumping = false;
      this.parsed.clear();
      this.history.trim();
    }
  }

  private deliver(w: Watcher, e: HistoryEvent): void {
    let event = this.parsed.get(e.revision);
    if (!event) {
      event = lazyEvent(e);
      if (this.watchers.size > 1) this.parsed.set(e.revision, event);
    }
    try {
      w.listener(event);
    } catch (err) {
      this.onListenerError(err);
    }
  }
}

/**
 * The event with `object` and `previous` parsed on first read, then kept. Watchers that only look at
 * type, resource and name (namespace bootstrap watches every resource for a few names) cost no parse;
 * the others share one parse per event, as before.
 */
function lazyEvent(e: HistoryEvent): StoreEvent {
  let object: KubeObject | undefined;
  let previous: KubeObject | undefined;
  const event: StoreEvent = {
    type: e.type, resource: e.resource, namespace: e.namespace, name: e.name,
    get object(): KubeObject {
      object ??= JSON.parse(e.json) as KubeObject;
      return object;
    },
    set object(value: KubeObject) {
      object = value;
    },
    revision: e.revision,
    json: e.json,
  };
  if (e.previousJson !== undefined) {
    const text = e.previousJson;
    event.previousJson = text;
    Object.defineProperty(event, 'previous', {
      enumerable: true, configurable: true,
      get: () => (previous ??= JSON.parse(text) as KubeObject),
      set: (value: KubeObject) => { previous = value; },
    });
  }
  return event;
}
