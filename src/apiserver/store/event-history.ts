// The retained event history: what watches resume from and what consistent
// list snapshots are rebuilt from. Like etcd's compaction window, it is bounded
// both by count and by age; dropping an event moves the "compacted" revision,
// and anything asked of a revision older than that answers 410 Expired.
//
// Defaults (10,000 events, 5 minutes; an event is dropped when either limit is
// passed): kube-apiserver compacts etcd every 5 minutes, so clients already
// expect continue tokens and watch resourceVersions to expire on that scale,
// and 10,000 events bounds the memory a write burst can pin.
import type { StoreEventType } from './store.ts';

export interface HistoryEvent {
  type: StoreEventType;
  resource: string;
  namespace: string;
  name: string;
  /** "<namespace>/<name>" */
  key: string;
  revision: number;
  /** The object as of the event; for DELETED, the last state stamped with the deletion revision. */
  json: string;
  /** The state before the event (MODIFIED and DELETED). */
  previousJson?: string;
  /** Milliseconds since the epoch when the event was recorded. */
  time: number;
}

export interface HistoryLimits {
  maxEvents: number;
  maxAgeMs: number;
  now: () => number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxEvents: 10_000, maxAgeMs: 5 * 60_000, now: Date.now };

export class EventHistory {
  // A queue as an array plus a head index: shifting 10,000 entries per write would be quadratic.
  private events: HistoryEvent[] = [];
  private head = 0;
  private compacted: number;

  constructor(private readonly limits: HistoryLimits, compactedRevision = 0) {
    this.compacted = compactedRevision;
  }

  /** Every event after this revision is retained: a watch or snapshot may start here or later. */
  compactedRevision(): number {
    return this.compacted;
  }

  /** Forgets everything: after a restart only revisions from here on can be resumed. */
  resetTo(revision: number): void {
    this.events = [];
    this.head = 0;
    this.compacted = revision;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  push(event: Omit<HistoryEvent, 'time'>): void {
    this.events.push({ ...event, time: this.limits.now() });
  }

  /** Drops events beyond the count or age limit. Called when no delivery is in flight. */
  trim(): void {
    const cutoff = this.limits.now() - this.limits.maxAgeMs;
    while (this.head < this.events.length) {
      const oldest = this.events[this.head];
      if (!oldest || (this.size <= this.limits.maxEvents && oldest.time >= cutoff)) break;
      this.compacted = oldest.revision;
      this.events[this.head] = undefined as unknown as HistoryEvent; // let it be collected before the array is compacted
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** The first retained event with revision > `revision`, or undefined. */
  firstAfter(revision: number): HistoryEvent | undefined {
    const i = this.indexAfter(revision);
    return this.events[i];
  }

  private indexAfter(revision: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid]?.revision ?? 0) <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The state at `revision` of every key of `resource` written since: key → JSON, or null when the key
   * did not exist then. Walking newest to oldest, the oldest event after `revision` has the last word.
   */
  overlay(resource: string, revision: number): Map<string, string | null> {
    const overlay = new Map<string, string | null>();
    const from = this.indexAfter(revision);
    for (let i = this.events.length - 1; i >= from; i--) {
      const e = this.events[i];
      if (!e || e.resource !== resource) continue;
      overlay.set(e.key, e.type === 'ADDED' ? null : e.previousJson ?? null);
    }
    return overlay;
  }
}
