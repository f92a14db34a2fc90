// A bounded ring of one resource's recent events, so a watch can resume from a
// resourceVersion and a paged list can be rewound to its first page's
// snapshot. `start` is the version a client must have seen everything up to
// for the ring to hold every event after it; older versions are expired (410),
// as in kube-apiserver's watch cache.
//
// Bounded by bytes as well as by count (issue 6, memory is bounded): ten
// thousand small events are a few MiB, but the same count of 512 KiB
// ConfigMaps would be gigabytes, and a tenant writing big objects would grow
// the gateway until the count was reached. The oldest events go first either
// way; a watch resuming from before them is forwarded to the upstream.
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
  private readonly sizes: number[];
  private head = 0; // index of the oldest event
  private size = 0;
  private totalBytes = 0;
  /** Every event after this version is in the ring. */
  private startRv: number;

  constructor(private readonly capacity: number, startRv: number, private readonly maxBytes = Infinity) {
    this.events = new Array<CachedEvent | undefined>(capacity);
    this.sizes = new Array<number>(capacity).fill(0);
    this.startRv = startRv;
  }

  get start(): number {
    return this.startRv;
  }

  get length(): number {
    return this.size;
  }

  /** Bytes held, as estimated by approximateBytes when the events were pushed. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Adds an event of about `bytes` (approximateBytes of its object), dropping the oldest to stay within both bounds. */
  push(event: CachedEvent, bytes = 0): void {
    while (this.size > 0 && (this.size === this.capacity || this.totalBytes + bytes > this.maxBytes)) this.dropOldest();
    const at = (this.head + this.size) % this.capacity;
    this.events[at] = event;
    this.sizes[at] = bytes;
    this.totalBytes += bytes;
    this.size++;
  }

  private dropOldest(): void {
    const dropped = this.events[this.head];
    if (dropped) this.startRv = dropped.rv;
    this.events[this.head] = undefined;
    this.totalBytes -= this.sizes[this.head] ?? 0;
    this.sizes[this.head] = 0;
    this.head = (this.head + 1) % this.capacity;
    this.size--;
  }

  /** Forgets every event: nothing at or before `rv` can be resumed from any more (after a relist). */
  reset(rv: number): void {
    this.events.fill(undefined);
    this.sizes.fill(0);
    this.head = 0;
    this.size = 0;
    this.totalBytes = 0;
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

/** What a member or an element is counted beyond its text: a JSON comma, and the per-value allowance of approximateBytes. */
const PER_SEPARATOR = 6;

/**
 * The same estimate from an object's JSON text, without walking the parsed object (~1 µs against ~10 for a
 * 1.5 KiB ConfigMap event): its length, plus an allowance per comma, so that text dense in small values
 * (a hostile `[1,1,1,…]`, 2 characters per element) is not counted at a fraction of what approximateBytes
 * counts for it (9 per element). Commas inside strings add to the estimate; they never lower it.
 */
export function approximateTextBytes(text: string): number {
  let commas = 0;
  for (let at = text.indexOf(','); at !== -1; at = text.indexOf(',', at + 1)) commas++;
  return text.length + PER_SEPARATOR * commas;
}

/**
 * About how many bytes an object's JSON takes: string lengths plus a little
 * per key and value, without serialising it. Cheap enough for every event.
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) bytes += approximateBytes(item) + 1;
    return bytes;
  }
  for (const [key, item] of Object.entries(value)) bytes += key.length + 4 + approximateBytes(item);
  return bytes;
}
