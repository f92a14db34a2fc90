// One upstream resource's shared cache: a single informer holding every
// tenant's objects, indexed by owning tenant, a ring of recent events, and the
// tenants' watch listeners. Reads cost what the tenant owns: its index entry,
// its listeners. Objects are kept once, as upstream sent them; translation to a
// tenant's view happens per read or per delivered event, on a copy.
import type { KubeObject } from '../../core/types.ts';
import { startInformer, objectKey, type Informer, type InformerEventType } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { EventRing, approximateBytes, approximateTextBytes, type CachedEvent } from './event-ring.ts';
import { resourceVersionOf } from './resource-version.ts';
import { tenantOwnerOf, type OwnerRule } from './tenant-owner.ts';

const TENANT_INDEX = 'tenant';

/** A tenant's listener; events are shared by every listener and must be treated as read-only. */
export type CacheListener = (event: CachedEvent, memo: Map<string, unknown>) => void;

export interface ResourceCacheOptions {
  upstream: Upstream;
  /** Upstream collection path, e.g. /api/v1/events. */
  listPath: string;
  ownerRule: OwnerRule;
  ringCapacity: number;
  /** Bytes of events the ring may hold (approximateBytes of each event's object); default unbounded. */
  ringMaxBytes?: number;
  log?: (line: string) => void;
}

export class ResourceCache {
  readonly listPath: string;
  readonly ownerRule: OwnerRule;
  private readonly informer: Informer<KubeObject>;
  private ring: EventRing | undefined;
  private lastRv = 0;
  private resetQueued = false;
  private readonly listeners = new Map<string, Set<CacheListener>>();
  private readonly progress = new Set<() => void>();
  private readonly lostListeners = new Set<() => void>();
  private watchers = 0;
  lastUsed = Date.now();

  constructor(options: ResourceCacheOptions) {
    this.listPath = options.listPath;
    this.ownerRule = options.ownerRule;
    const capacity = options.ringCapacity;
    const maxBytes = options.ringMaxBytes ?? Infinity;
    this.informer = startInformer<KubeObject>({
      upstream: options.upstream,
      listPath: options.listPath,
      ...(options.log ? { log: options.log } : {}),
      onEvent: (type, obj, old, text) => this.onEvent(type, obj, old, text),
      // A Warren upstream then bookmarks this watch on request, so a read can prove the cache current.
      progressNotify: true,
      onProgress: () => { for (const check of this.progress) check(); },
      // Watches fed by this cache end when its upstream watch breaks (issue 6): clients re-list.
      onWatchLost: () => { for (const fn of [...this.lostListeners]) fn(); },
    });
    this.informer.addIndex(TENANT_INDEX, (obj) => {
      const owner = tenantOwnerOf(obj, this.ownerRule);
      return owner === undefined ? [] : [owner];
    });
    void this.informer.synced().then(() => {
      this.lastRv = this.currentRv();
      this.ring = new EventRing(capacity, this.lastRv, maxBytes);
    }, () => undefined);
  }

  synced(): Promise<void> {
    return this.informer.synced();
  }

  isSynced(): boolean {
    return this.ring !== undefined;
  }

  /** The version the cache is current at: last list, event or upstream bookmark. */
  currentRv(): number {
    return Math.max(resourceVersionOf(this.informer.lastSyncResourceVersion()), this.lastRv);
  }

  /** Does the upstream bookmark this cache's watch on request (a Warren apiserver does)? */
  notifiesProgress(): boolean {
    return this.informer.notifiesProgress();
  }

  /** Every event after this version can be replayed; older ones are expired. */
  oldestRv(): number {
    return this.ring?.start ?? this.currentRv();
  }

  /** The tenant's current objects (shared: never mutate them). */
  objectsOf(tenant: string): KubeObject[] {
    return this.informer.byIndex(TENANT_INDEX, tenant);
  }

  /**
   * The tenant's objects as they were at `rv`, by undoing the ring's later
   * events; undefined when the ring no longer reaches back that far.
   */
  objectsAt(tenant: string, rv: number): Map<string, KubeObject> | undefined {
    const later = this.ring?.since(rv);
    if (!later) return undefined;
    const state = new Map<string, KubeObject>();
    for (const obj of this.objectsOf(tenant)) state.set(objectKey(obj), obj);
    for (let i = later.length - 1; i >= 0; i--) {
      const event = later[i];
      if (!event || event.owner !== tenant) continue;
      // Undo it: an addition disappears, a change or deletion brings the object back as it was.
      const before = event.type === 'ADDED' ? undefined : event.previous ?? (event.type === 'DELETED' ? event.object : undefined);
      if (before === undefined) state.delete(event.key);
      else state.set(event.key, before);
    }
    return state;
  }

  /** Events after `rv` that concern the tenant; undefined when expired. */
  eventsSince(tenant: string, rv: number): CachedEvent[] | undefined {
    return this.ring?.since(rv)?.filter((e) => e.owner === tenant);
  }

  subscribe(tenant: string, listener: CacheListener): () => void {
    let set = this.listeners.get(tenant);
    if (!set) this.listeners.set(tenant, (set = new Set()));
    set.add(listener);
    this.watchers++;
    return () => {
      if (!set.delete(listener)) return;
      this.watchers--;
      this.lastUsed = Date.now();
      if (set.size === 0) this.listeners.delete(tenant);
    };
  }

  /** Called whenever the upstream watch breaks; returns the unsubscribe. */
  onLost(fn: () => void): () => void {
    this.lostListeners.add(fn);
    return () => { this.lostListeners.delete(fn); };
  }

  watcherCount(): number {
    return this.watchers;
  }

  /** Resolves once the cache is current at `rv` or later; false after timeoutMs. */
  async waitFor(rv: number, timeoutMs: number): Promise<boolean> {
    if (this.currentRv() >= rv) return true;
    return await new Promise<boolean>((resolve) => {
      // Upstream bookmarks move the version without an event: poll as well as listen.
      const check = (): void => {
        if (this.currentRv() < rv) return;
        done(true);
      };
      const poll = setInterval(check, 20);
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean): void => {
        clearInterval(poll);
        clearTimeout(timer);
        this.progress.delete(check);
        resolve(ok);
      };
      this.progress.add(check);
    });
  }

  stop(): void {
    this.informer.stop();
    for (const set of this.listeners.values()) set.clear();
    this.listeners.clear();
  }

  private onEvent(type: InformerEventType, obj: KubeObject, old: KubeObject | undefined, text: string | undefined): void {
    const ring = this.ring;
    if (!ring) return; // the first LIST: nobody can be watching before the cache has synced
    let rv = resourceVersionOf(obj.metadata.resourceVersion);
    if (rv <= this.lastRv) {
      // Out of order: a relist after the watch expired or failed, whose synthesized
      // events carry no usable order. Live watchers still get them; resuming from
      // any version up to the end of the relist is refused (410) and the client relists.
      rv = this.lastRv;
      this.queueRingReset();
    }
    this.lastRv = rv;
    const owner = tenantOwnerOf(obj, this.ownerRule) ?? (old ? tenantOwnerOf(old, this.ownerRule) : undefined);
    const event: CachedEvent = { rv, type, object: obj, previous: old, owner, key: objectKey(obj) };
    // The event's own JSON line sizes it (ADR 0042): walking the object cost ~2/3 of its parse, the text ~1/15.
    ring.push(event, text !== undefined ? approximateTextBytes(text) : approximateBytes(obj));
    if (owner !== undefined) {
      const set = this.listeners.get(owner);
      if (set && set.size > 0) {
        // One memo per tenant and event: watchers of a tenant share its translated lines.
        const memo = new Map<string, unknown>();
        for (const listener of [...set]) listener(event, memo);
      }
    }
    for (const check of this.progress) check();
  }

  private queueRingReset(): void {
    if (this.resetQueued) return;
    this.resetQueued = true;
    // The relist emits its events synchronously, then sets the informer's version: reset after it.
    queueMicrotask(() => {
      this.resetQueued = false;
      const rv = Math.max(this.lastRv, resourceVersionOf(this.informer.lastSyncResourceVersion()));
      this.lastRv = rv;
      this.ring?.reset(rv);
    });
  }
}
