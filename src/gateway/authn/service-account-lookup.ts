// Does a tenant's ServiceAccount exist, and with which uid? Read upstream
// (where it is `<id>-<ns>/<name>`), for TokenRequest (fresh) and for
// authenticating its tokens (cached briefly: deleting the ServiceAccount stops
// its tokens within CACHE_MS, as kube's bound tokens stop with their object).
import { ApiError } from '../../core/api-error.ts';
import { toUpstreamNamespace } from '../../core/tenancy/names.ts';
import type { Upstream } from '../../kube/upstream.ts';

/** How long an answer is reused by authentication. */
export const SERVICE_ACCOUNT_CACHE_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface ServiceAccountLookup {
  /** The uid of the tenant's ServiceAccount, undefined when it does not exist (fresh read). */
  uidOf(tenantId: string, namespace: string, name: string): Promise<string | undefined>;
  /** The same, answered from a short cache. */
  cachedUidOf(tenantId: string, namespace: string, name: string): Promise<string | undefined>;
}

export function createServiceAccountLookup(upstream: Pick<Upstream, 'request'>, now: () => number = Date.now): ServiceAccountLookup {
  const cache = new Map<string, { uid: string | undefined; at: number }>();
  const uidOf = async (tenantId: string, namespace: string, name: string): Promise<string | undefined> => {
    const path = `/api/v1/namespaces/${encodeURIComponent(toUpstreamNamespace(tenantId, namespace))}/serviceaccounts/${encodeURIComponent(name)}`;
    const res = await upstream.request<{ metadata?: { uid?: unknown } }>('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new ApiError('ServiceUnavailable', 'the ServiceAccount could not be checked, please try again', { retryAfterSeconds: 1 });
    const uid = res.body?.metadata?.uid;
    return typeof uid === 'string' ? uid : undefined;
  };
  return {
    uidOf,
    async cachedUidOf(tenantId, namespace, name) {
      const key = `${tenantId}/${namespace}/${name}`;
      const hit = cache.get(key);
      if (hit && now() - hit.at < SERVICE_ACCOUNT_CACHE_MS) return hit.uid;
      const uid = await uidOf(tenantId, namespace, name);
      cache.delete(key);
      // Oldest first out: a Map iterates in insertion order.
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, { uid, at: now() });
      return uid;
    },
  };
}
