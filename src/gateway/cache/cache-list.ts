// A tenant's LIST served from the shared cache: only its index entry is read,
// then filtered by its selectors, sorted by key (namespace/name, as etcd
// orders them) and cut into full pages. A continue token names the first
// page's version: later pages are read from that same snapshot, rebuilt by
// undoing newer events, so paging stays consistent while objects change.
import { ApiError, expired } from '../../core/api-error.ts';
import type { KubeList, KubeObject } from '../../core/types.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toTenantList } from '../../core/tenancy/response-translation.ts';
import { objectKey } from '../../kube/informer.ts';
import type { CachePredicate } from './cache-selector.ts';
import type { CacheQuery } from './cache-query.ts';
import { CONTINUE_EXPIRED_MESSAGE, decodeContinue, encodeContinue } from './continue-token.ts';
import type { ResourceCache } from './resource-cache.ts';
import type { ResourceShape } from './resource-shape.ts';

export interface ListPlan {
  cache: ResourceCache;
  ctx: TenantContext;
  query: CacheQuery;
  predicate: CachePredicate;
  shape: ResourceShape;
  /** How long to wait for a resourceVersion newer than the cache (kube's watch cache: 3 s). */
  freshnessTimeoutMs: number;
  /** For a list at "most recent": the upstream's current version, which the cache should reach first. */
  latestUpstreamRv?: () => Promise<number | undefined>;
  /** Bounded wait for latestUpstreamRv (the cache may have no event to reach it with). */
  consistencyWaitMs: number;
  /** Serve only a cache proven current (it reached the upstream's version); otherwise decline. */
  requireFresh?: boolean;
}

export function tooLargeResourceVersion(asked: number, current: number): ApiError {
  return new ApiError('Timeout', `Too large resource version: ${asked}, current: ${current}`,
    { causes: [{ type: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
}

/** Waits (bounded) until the cache is at `rv`; kube's 504 "Too large resource version" otherwise. */
export async function awaitVersion(cache: ResourceCache, rv: number, timeoutMs: number): Promise<void> {
  if (await cache.waitFor(rv, timeoutMs)) return;
  throw tooLargeResourceVersion(rv, cache.currentRv());
}

async function snapshotOf(plan: ListPlan): Promise<{ rv: number; objects: Iterable<[string, KubeObject]>; after?: string } | undefined> {
  const { cache, ctx, query } = plan;
  if (query.continueToken !== undefined) {
    const position = decodeContinue(ctx.id, query.continueToken, plan.shape.crdNames);
    const state = cache.objectsAt(ctx.id, position.rv);
    if (!state) throw expired(CONTINUE_EXPIRED_MESSAGE);
    return { rv: position.rv, objects: state, after: position.after };
  }
  const asked = query.resourceVersion;
  if (asked === undefined && plan.latestUpstreamRv) {
    const latest = await plan.latestUpstreamRv();
    // A write to another resource moves the upstream's version with no event for this one.
    // A Warren upstream bookmarks the cache's watch once it answered the probe, so the wait
    // ends within a round trip; from another upstream, the cache is as fresh as it gets after
    // the wait, and a read that must be fresh is not even tried.
    const reached = latest !== undefined && (cache.currentRv() >= latest
      || ((!plan.requireFresh || cache.notifiesProgress()) && await cache.waitFor(latest, plan.consistencyWaitMs)));
    if (plan.requireFresh && !reached) return undefined;
  }
  if (asked !== undefined && asked > 0) await awaitVersion(cache, asked, plan.freshnessTimeoutMs);
  if (query.exact && asked !== undefined) {
    // Older than the cache's history: the upstream may still have it (and says 410 if not).
    const state = cache.objectsAt(ctx.id, asked);
    return state ? { rv: asked, objects: state } : undefined;
  }
  const rv = cache.currentRv();
  return { rv, objects: cache.objectsOf(ctx.id).map((obj) => [objectKey(obj), obj] as [string, KubeObject]) };
}

interface Page {
  items: KubeObject[];
  metadata: KubeList['metadata'];
}

async function pageOf(plan: ListPlan): Promise<Page | undefined> {
  const { ctx, query, predicate, shape } = plan;
  const snapshot = await snapshotOf(plan);
  if (!snapshot) return undefined;
  const selected: [string, KubeObject][] = [];
  for (const entry of snapshot.objects) {
    if (snapshot.after !== undefined && entry[0] <= snapshot.after) continue;
    if (predicate.matches(entry[1])) selected.push(entry);
  }
  selected.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const limit = query.limit;
  const page = limit !== undefined && selected.length > limit ? selected.slice(0, limit) : selected;
  const metadata: KubeList['metadata'] = { resourceVersion: String(snapshot.rv) };
  if (page.length < selected.length) {
    const last = page[page.length - 1];
    if (last) metadata.continue = encodeContinue(ctx.id, { rv: snapshot.rv, after: last[0] }, shape.crdNames);
    if (predicate.everything) metadata.remainingItemCount = selected.length - page.length;
  }
  return { items: page.map(([, obj]) => obj), metadata };
}

function tenantItem(plan: ListPlan, obj: KubeObject): KubeObject | undefined {
  // The cache's objects are shared by every reader: translate a copy.
  const item = toTenantList(plan.ctx, { apiVersion: plan.shape.apiVersion, kind: plan.shape.listKind, metadata: {}, items: [structuredClone(obj)] }).items[0];
  if (item && !plan.shape.itemsCarryKind) {
    delete item.apiVersion;
    delete item.kind;
  }
  return item;
}

/** The tenant's list from the cache; undefined when the cache cannot answer it (forward it). */
export async function listFromCache(plan: ListPlan): Promise<KubeList | undefined> {
  const page = await pageOf({ ...plan, requireFresh: false });
  if (!page) return undefined;
  const items = page.items.map((obj) => tenantItem(plan, obj)).filter((i): i is KubeObject => i !== undefined);
  return { apiVersion: plan.shape.apiVersion, kind: plan.shape.listKind, metadata: page.metadata, items };
}

/**
 * Each cached object belongs to one tenant and is replaced (a new object) on every change:
 * its translated JSON can be kept beside it and reused by every LIST until it changes.
 */
const tenantJson = new WeakMap<KubeObject, string | null>();

/** The same list as listFromCache, as JSON text joined from per-object translations kept between LISTs. */
export async function listTextFromCache(plan: ListPlan): Promise<string | undefined> {
  const page = await pageOf(plan);
  if (!page) return undefined;
  const texts: string[] = [];
  for (const obj of page.items) {
    let text = tenantJson.get(obj);
    if (text === undefined) {
      const item = tenantItem(plan, obj);
      text = item ? JSON.stringify(item) : null;
      tenantJson.set(obj, text);
    }
    if (text !== null) texts.push(text);
  }
  return `{"apiVersion":${JSON.stringify(plan.shape.apiVersion)},"kind":${JSON.stringify(plan.shape.listKind)},"metadata":${JSON.stringify(page.metadata)},"items":[${texts.join(',')}]}`;
}
