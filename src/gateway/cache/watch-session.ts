// One tenant watch fed by the shared cache. Kube's watch-cache semantics: an
// object that starts matching the selectors arrives as ADDED, one that stops
// matching leaves as DELETED (its last matching state, at the event's version);
// BOOKMARKs carry the cache's version; the stream ends at timeoutSeconds, when
// the client goes, or when the client cannot keep up (its buffer is bounded:
// it re-lists, as client-go does after any watch end).
import type { KubeObject, Status, WatchEvent } from '../../core/types.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toTenantWatchEvent } from '../../core/tenancy/response-translation.ts';
import type { CachedEvent } from './event-ring.ts';
import type { CachePredicate } from './cache-selector.ts';
import type { ResourceShape } from './resource-shape.ts';

export interface WatchSink {
  /** One event in the tenant's view and its JSON line (shared by watchers: read-only). False: too slow, cut off. */
  write(event: WatchEvent, line: string): boolean;
  /** The watch is over; called once. */
  end(): void;
}

export interface WatchSessionOptions {
  ctx: TenantContext;
  predicate: CachePredicate;
  shape: ResourceShape;
  sink: WatchSink;
  currentRv: () => number;
}

/** The event a watcher with this predicate sees, as kube's cacheWatcher.convertToWatchEvent decides it. */
export function eventFor(event: CachedEvent, predicate: CachePredicate): { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObject; rvOverride?: string } | undefined {
  const now = event.type !== 'DELETED' && predicate.matches(event.object);
  const before = event.type === 'DELETED'
    ? predicate.matches(event.previous ?? event.object)
    : event.previous !== undefined && predicate.matches(event.previous);
  if (now && !before) return { type: 'ADDED', object: event.object };
  if (now && before) return { type: 'MODIFIED', object: event.object };
  if (!before) return undefined;
  const last = event.type === 'DELETED' ? event.previous ?? event.object : event.previous;
  if (!last) return undefined;
  return { type: 'DELETED', object: last, rvOverride: String(event.rv) };
}

/** The tenant view of an upstream object as a watch event, or undefined when it is not the tenant's. */
export function tenantEvent(ctx: TenantContext, type: WatchEvent['type'], object: KubeObject, rvOverride?: string): { event: WatchEvent; line: string } | undefined {
  const copy = structuredClone(object);
  if (rvOverride !== undefined) copy.metadata.resourceVersion = rvOverride;
  const event = toTenantWatchEvent(ctx, { type, object: copy });
  return event ? { event, line: `${JSON.stringify(event)}\n` } : undefined;
}

export class WatchSession {
  private open = true;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private bookmarkTimer: NodeJS.Timeout | undefined;
  private cleanup: (() => void)[] = [];

  constructor(private readonly options: WatchSessionOptions) {}

  get isOpen(): boolean {
    return this.open;
  }

  onEnd(fn: () => void): void {
    if (this.open) this.cleanup.push(fn);
    else fn();
  }

  /** Delivers one cache event, translated once per tenant (memo) and shared by its watchers. */
  deliver(event: CachedEvent, memo?: Map<string, unknown>): void {
    if (!this.open) return;
    const seen = eventFor(event, this.options.predicate);
    if (!seen) return;
    const memoKey = `${seen.type}/${seen.object === event.object ? 'now' : 'before'}`;
    let out = memo?.get(memoKey) as { event: WatchEvent; line: string } | null | undefined;
    if (out === undefined) {
      out = tenantEvent(this.options.ctx, seen.type, seen.object, seen.rvOverride) ?? null;
      memo?.set(memoKey, out);
    }
    if (out) this.send(out.event, out.line);
  }

  /** The tenant's current objects as ADDED (watch without a version, or sendInitialEvents). */
  sendInitial(objects: Iterable<KubeObject>): void {
    for (const obj of objects) {
      if (!this.open) return;
      if (!this.options.predicate.matches(obj)) continue;
      const out = tenantEvent(this.options.ctx, 'ADDED', obj);
      if (out) this.send(out.event, out.line);
    }
  }

  sendBookmark(initialEventsEnd = false): void {
    const { shape } = this.options;
    const metadata: KubeObject['metadata'] = { resourceVersion: String(this.options.currentRv()) };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    const out = tenantEvent(this.options.ctx, 'BOOKMARK', { apiVersion: shape.apiVersion, kind: shape.kind, metadata });
    if (out) this.send(out.event, out.line);
  }

  sendError(status: Status): void {
    const out = tenantEvent(this.options.ctx, 'ERROR', status as unknown as KubeObject);
    if (out) this.send(out.event, out.line);
  }

  /**
   * Ends the watch at the deadline; with bookmarks, one every interval and one
   * 2 s before the deadline (as kube's watch cache does), so the client can
   * resume from the freshest version.
   */
  schedule(timeoutMs: number, bookmarks: boolean, bookmarkIntervalMs: number): void {
    const deadline = Date.now() + timeoutMs;
    this.deadlineTimer = setTimeout(() => this.end(), timeoutMs);
    if (!bookmarks) return;
    const next = (): void => {
      const untilLast = deadline - 2_000 - Date.now();
      const delay = untilLast > 0 ? Math.min(bookmarkIntervalMs, untilLast) : bookmarkIntervalMs;
      if (Date.now() + delay >= deadline) return;
      this.bookmarkTimer = setTimeout(() => {
        this.sendBookmark();
        if (this.open) next();
      }, delay);
    };
    next();
  }

  end(): void {
    if (!this.open) return;
    this.open = false;
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.bookmarkTimer);
    const cleanup = this.cleanup;
    this.cleanup = [];
    for (const fn of cleanup) fn();
    this.options.sink.end();
  }

  /** While true (initial state, replay), a full client buffer does not end the watch. */
  catchingUp = false;

  private send(event: WatchEvent, line: string): void {
    if (!this.open) return;
    if (!this.options.sink.write(event, line) && !this.catchingUp) this.end();
  }
}
