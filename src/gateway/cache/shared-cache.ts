// The gateway's shared watch cache: one informer per upstream resource, shared
// by every tenant, started on first use and stopped when nobody has used it for
// a while. A tenant's all-namespaces or cluster-scoped LIST and WATCH are
// served from it, so their cost follows the tenant's own objects, and a
// thousand tenant watches cost one upstream watch.
import type { KubeList } from '../../core/types.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { compileCachePredicate, type CachePredicate } from './cache-selector.ts';
import { parseCacheQuery, type CacheQuery } from './cache-query.ts';
import { awaitVersion, listFromCache, listTextFromCache } from './cache-list.ts';
import { ResourceCache } from './resource-cache.ts';
import { shapeOf, type ResourceShape } from './resource-shape.ts';
import { WatchSession, type WatchSink } from './watch-session.ts';
import { probeUpstreamVersion } from '../../kube/upstream-version.ts';
import { levelled } from '../../observability/log-line.ts';

export type CacheRequest = Pick<ForwardedRequest, 'path' | 'query' | 'namespaced' | 'class'>;

export interface SharedCacheOptions {
  /** Recent events kept per resource for watch resumption and paging (default 10,000; kube keeps up to 102,400). */
  ringCapacity?: number;
  /**
   * Bytes of recent events kept per resource (default 32 MiB, estimated from the
   * objects): the count alone does not bound memory when objects are big.
   */
  ringMaxBytes?: number;
  /** A resource cache with no watcher and no read for this long is stopped (default 5 min). */
  idleStopMs?: number;
  /** Default 60 s, as kube-apiserver. */
  bookmarkIntervalMs?: number;
  /** How long a read asking for a version newer than the cache waits before 504 (default 3 s, as kube). */
  freshnessTimeoutMs?: number;
  /** Lists at "most recent" first ask the upstream for its version (a one-item LIST) and let the cache catch up (default true). */
  consistentReads?: boolean;
  /** Upper bound of that catch-up wait (default 100 ms). */
  consistencyWaitMs?: number;
  /** Upper bound of the upstream version probe itself (default 1 s). */
  consistencyProbeMs?: number;
  /** A cache not synced by then does not serve the request: it is forwarded (default 10 s). */
  syncTimeoutMs?: number;
  /** Watch length without timeoutSeconds: kube's random 30–60 min by default. */
  defaultWatchTimeoutMs?: () => number;
  log?: (line: string) => void;
}

export interface SharedCache {
  /** The tenant's list in its own terms; undefined when the cache does not serve this request (forward it). */
  list(ctx: TenantContext, request: CacheRequest): Promise<KubeList | undefined>;
  /**
   * The same list as JSON text, from per-object translations kept between LISTs. With
   * requireFresh, undefined unless the cache provably caught up with the upstream.
   */
  listText(ctx: TenantContext, request: CacheRequest, requireFresh?: boolean): Promise<string | undefined>;
  /** Is the resource's cache already open and synced (so a read costs no upstream LIST)? */
  isWarm(request: CacheRequest): boolean;
  /** Opens the resource's cache in the background, if this request's class is cached; never waits. */
  warm(request: CacheRequest): void;
  /**
   * Starts a tenant watch feeding sink; resolves to a function that ends it, or
   * undefined when the cache does not serve this request. Throws ApiError before
   * any event (bad query, 504 too large resource version); a version older than
   * the cache's history is not served (the upstream may still have it). With
   * requireFresh, neither is one newer than the cache that it cannot prove it
   * will reach (an upstream that does not bookmark on request).
   */
  watch(ctx: TenantContext, request: CacheRequest, sink: WatchSink, requireFresh?: boolean): Promise<(() => void) | undefined>;
  stats(): { resources: number; watchers: number };
  stop(): void;
}

interface Entry {
  cache: ResourceCache;
  shape: ResourceShape;
}

interface Prepared {
  entry: Entry;
  query: CacheQuery;
  predicate: CachePredicate;
}

const CACHED_CLASSES = new Set(['tenant-namespaced', 'tenant-cluster-scoped', 'tenant-custom', 'shared-read-only']);

/** Shared cluster-scoped objects (storage classes) belong to no tenant: nothing to index them by. */
const cachedClass = (request: CacheRequest): boolean =>
  CACHED_CLASSES.has(request.class) && !(request.class === 'shared-read-only' && !request.namespaced);

export function createSharedCache(upstream: Upstream, options: SharedCacheOptions = {}): SharedCache {
  const entries = new Map<string, Promise<Entry | undefined>>();
  const live = new Map<string, Entry>();
  const sessions = new Set<WatchSession>();
  const idleStopMs = options.idleStopMs ?? 5 * 60_000;
  const log = options.log ?? (() => undefined);
  let stopped = false;

  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [path, entry] of live) {
      if (entry.cache.watcherCount() > 0 || now - entry.cache.lastUsed < idleStopMs) continue;
      log(`shared cache ${path}: idle, stopping`);
      entry.cache.stop();
      live.delete(path);
      entries.delete(path);
    }
  }, Math.max(10, Math.min(idleStopMs / 2, 30_000)));
  sweeper.unref();

  // The progress request it carries makes a Warren upstream bookmark the cache's watch at that version.
  const latestUpstreamRv = (path: string): Promise<number | undefined> => probeUpstreamVersion(upstream, path, options.consistencyProbeMs ?? 1_000);

  async function open(path: string, namespaced: boolean): Promise<Entry | undefined> {
    // One small LIST first: it tells the list kind (an empty cache has no object to read it from),
    // and a resource the upstream refuses (an unknown CRD: 404) is left to the forwarder to report.
    const probe = await upstream.request<KubeList>('GET', `${path}?limit=1`);
    const shape = probe.status === 200 ? shapeOf(path, namespaced, probe.body) : undefined;
    if (!shape || stopped) return undefined;
    const cache = new ResourceCache({ upstream, listPath: path, ownerRule: shape, ringCapacity: options.ringCapacity ?? 10_000, ringMaxBytes: options.ringMaxBytes ?? 32 * 2 ** 20, log });
    const entry = { cache, shape };
    live.set(path, entry);
    return entry;
  }

  async function entryFor(request: CacheRequest): Promise<Entry | undefined> {
    let pending = entries.get(request.path);
    if (!pending) {
      pending = open(request.path, request.namespaced || request.class === 'tenant-custom').catch((err: unknown) => {
        log(levelled('warn', `shared cache ${request.path}: ${String(err)}`));
        return undefined;
      });
      entries.set(request.path, pending);
    }
    const entry = await pending;
    if (!entry) {
      if (entries.get(request.path) === pending) entries.delete(request.path); // try again next time
      return undefined;
    }
    entry.cache.lastUsed = Date.now();
    if (!entry.cache.isSynced()) {
      const synced = await Promise.race([
        entry.cache.synced().then(() => true, () => false),
        new Promise<boolean>((resolve) => setTimeout(resolve, options.syncTimeoutMs ?? 10_000, false).unref()),
      ]);
      if (!synced) return undefined;
    }
    return entry;
  }

  async function prepare(ctx: TenantContext, request: CacheRequest): Promise<Prepared | undefined> {
    if (stopped || !cachedClass(request)) return undefined;
    const query = parseCacheQuery(request.query);
    if (!query) return undefined;
    const entry = await entryFor(request);
    if (!entry) return undefined;
    const predicate = compileCachePredicate(ctx.id, request.query, { namespaced: entry.shape.namespaced, fieldPaths: entry.shape.fieldPaths });
    return predicate ? { entry, query, predicate } : undefined;
  }

  return {
    async list(ctx, request) {
      const prepared = await prepare(ctx, request);
      if (!prepared) return undefined;
      const { entry, query, predicate } = prepared;
      const plan = {
        cache: entry.cache, ctx, query, predicate, shape: entry.shape,
        freshnessTimeoutMs: options.freshnessTimeoutMs ?? 3_000,
        consistencyWaitMs: options.consistencyWaitMs ?? 100,
      };
      return await listFromCache(options.consistentReads === false ? plan : { ...plan, latestUpstreamRv: () => latestUpstreamRv(request.path) });
    },

    isWarm(request) {
      const entry = live.get(request.path);
      return entry !== undefined && entry.cache.isSynced();
    },

    warm(request) {
      if (stopped || !cachedClass(request) || entries.has(request.path)) return;
      void entryFor(request);
    },

    async listText(ctx, request, requireFresh = false) {
      const prepared = await prepare(ctx, request);
      if (!prepared) return undefined;
      const { entry, query, predicate } = prepared;
      const plan = {
        cache: entry.cache, ctx, query, predicate, shape: entry.shape,
        freshnessTimeoutMs: options.freshnessTimeoutMs ?? 3_000,
        consistencyWaitMs: options.consistencyWaitMs ?? 100,
      };
      return await listTextFromCache({ ...plan, requireFresh, latestUpstreamRv: () => latestUpstreamRv(request.path), ...(requireFresh ? { consistencyWaitMs: 1_000 } : {}) });
    },

    async watch(ctx, request, sink, requireFresh = false) {
      const prepared = await prepare(ctx, request);
      if (!prepared) return undefined;
      const { entry, query, predicate } = prepared;
      const { cache, shape } = entry;
      const from = query.resourceVersion;
      if (from !== undefined && from > cache.currentRv()) {
        // A version from a forwarded read, or moved by writes to other resources: a Warren
        // upstream is asked to bookmark the cache's watch; another one may never bring it there.
        if (cache.notifiesProgress()) void latestUpstreamRv(request.path);
        else if (requireFresh) return undefined;
      }
      if (from !== undefined && from > 0) await awaitVersion(cache, from, options.freshnessTimeoutMs ?? 3_000);
      // From here to subscribe() nothing awaits: no event can fall between the replay and the live feed.
      const initial = from === undefined || from === 0 || query.sendInitialEvents === true;
      const replay = initial ? [] : cache.eventsSince(ctx.id, from);
      // Older than the cache's history (it opened or re-listed after that version): the upstream
      // may still have those events, and answers 410 itself if not.
      if (!replay) return undefined;
      const session = new WatchSession({ ctx, predicate, shape, sink, currentRv: () => cache.currentRv() });
      sessions.add(session);
      session.onEnd(() => sessions.delete(session));
      // The initial state and the replay are bounded (the tenant's objects, the event ring) and
      // are what the client asked for: they are not a slow consumer. The buffer limit starts with
      // the live feed.
      session.catchingUp = true;
      if (initial) {
        session.sendInitial(cache.objectsOf(ctx.id).sort((a, b) => keyOrder(a.metadata, b.metadata)));
        if (query.sendInitialEvents === true && query.allowWatchBookmarks) session.sendBookmark(true);
      } else {
        for (const event of replay) session.deliver(event);
      }
      session.catchingUp = false;
      if (!session.isOpen) return () => undefined;
      const unsubscribe = cache.subscribe(ctx.id, (event, memo) => session.deliver(event, memo));
      session.onEnd(unsubscribe);
      session.onEnd(cache.onLost(() => session.end()));
      const timeoutMs = query.timeoutSeconds !== undefined && query.timeoutSeconds > 0
        ? query.timeoutSeconds * 1000
        : (options.defaultWatchTimeoutMs ?? (() => (1800 + Math.random() * 1800) * 1000))();
      session.schedule(timeoutMs, query.allowWatchBookmarks, options.bookmarkIntervalMs ?? 60_000);
      return () => session.end();
    },

    stats() {
      let watchers = 0;
      for (const entry of live.values()) watchers += entry.cache.watcherCount();
      return { resources: live.size, watchers };
    },

    stop() {
      stopped = true;
      clearInterval(sweeper);
      for (const session of [...sessions]) session.end();
      for (const entry of live.values()) entry.cache.stop();
      live.clear();
      entries.clear();
    },
  };
}

function keyOrder(a: { namespace?: string; name?: string }, b: { namespace?: string; name?: string }): number {
  const ka = `${a.namespace ?? ''}/${a.name ?? ''}`;
  const kb = `${b.namespace ?? ''}/${b.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
