// A bounded ring of one resource's recent events, so a watch can resume from a
// resourceVersion and a paged list can be rewound to its first page's
// snapshot. `start` is the version a client must have seen everything up to
// for the ring to hold every event after it; older versions are expired (410),
// as in kube-apiserver's watch cache.
import type { KubeObject } from '../../core/types.ts';
import type { InformerEventType } from '../../kube/informer.ts';

export interface CachedEvent {
  rv: number;
  type: InformerEventType;
  /** The object after the event (for DELETED: as last seen, deletion version). */
  object: KubeObject;
  /** The object before the event, if the cache held it. */
  previous: KubeObject | undefined;
  /** The owning tenant (undefined: no tenant's). Fixed for a key: namespace and name never change. */
  owner: string | undefined;
  /** `namespace/name`, the informer's key. */
  key: string;
}

export class EventRing {
  private readonly events: (CachedEvent | undefined)[];
  private head = 0; // index of the oldest event
  private size = 0;
  /** Every event after this version is in the ring. */
  private startRv: number;

  constructor(private readonly capacity: number, startRv: number) {
    this.events = new Array<CachedEvent | undefined>(capacity);
    this.startRv = startRv;
  }

  get start(): number {
    return this.startRv;
  }

  get length(): number {
    return this.size;
  }

  push(event: CachedEvent): void {
    if (this.size === this.capacity) {
      const dropped = this.events[this.head];
      if (dropped) this.startRv = dropped.rv;
      this.events[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.size--;
    }
    this.events[(this.head + this.size) % this.capacity] = event;
    this.size++;
  }

  /** Forgets every event: nothing at or before `rv` can be resumed from any more (after a relist). */
  reset(rv: number): void {
    this.events.fill(undefined);
    this.head = 0;
    this.size = 0;
    this.startRv = rv;
  }

  /** Events with rv > from, oldest first; undefined when `from` is older than the ring. */
  since(from: number): CachedEvent[] | undefined {
    if (from < this.startRv) return undefined;
    const out: CachedEvent[] = [];
    // Walk back from the newest: a resume is usually from a recent version.
    for (let i = this.size - 1; i >= 0; i--) {
      const event = this.events[(this.head + i) % this.capacity];
      if (!event || event.rv <= from) break;
      out.push(event);
    }
    return out.reverse();
  }
}
