// The platform's ids (assign-id.ts platformIds), for tenants still waiting for
// one. Reading them is a LIST of every upstream namespace: four per tenant, so
// at 1,000 tenants each new tenant cost a 4,000-item LIST, and onboarding
// slowed down as it went (O(n²) in all). Concurrent reconciles now share one
// LIST in flight, and a result is reused for a moment. That adds at most
// `maxAgeMs` to a race that already exists (a platform namespace created just
// after the LIST), and ids this process handed out are covered by `reserved`.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { platformIds } from './assign-id.ts';
import type { ObjectClient } from './object-client.ts';
import { NAMESPACES_PATH } from './reconcile-namespaces.ts';

export const PLATFORM_IDS_MAX_AGE_MS = 1_000;

export function createPlatformIdsSource(client: ObjectClient, options: { maxAgeMs?: number; now?: () => number } = {}): () => Promise<ReadonlySet<string>> {
  const maxAgeMs = options.maxAgeMs ?? PLATFORM_IDS_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  let last: { at: number; ids: Promise<ReadonlySet<string>> } | undefined;
  return () => {
    // `at` is when the LIST started: a result is never older than maxAgeMs from its request.
    if (last && now() - last.at < maxAgeMs) return last.ids;
    const ids = client.list(NAMESPACES_PATH).then((namespaces) => platformIds(namespaces, TENANT_LABEL));
    const entry = { at: now(), ids };
    last = entry;
    ids.catch(() => { if (last === entry) last = undefined; }); // a failed LIST is not reused
    return ids;
  };
}
