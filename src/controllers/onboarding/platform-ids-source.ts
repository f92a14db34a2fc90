// The platform's ids (assign-id.ts platformIds), for tenants still waiting for
// one. Reading them was a LIST of every upstream namespace: four per tenant, so
// at 1,000 tenants each new tenant cost a 4,000-item LIST, and onboarding
// slowed down as it went (O(n²) in all). Now the LIST selects namespaces
// without the tenant label, concurrent reconciles share one LIST in flight,
// and a result is reused for a moment. That adds at most
// `maxAgeMs` to a race that already exists (a platform namespace created just
// after the LIST), and ids this process handed out are covered by `reserved`.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { platformIds } from './assign-id.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { NAMESPACES_PATH } from './reconcile-namespaces.ts';

export const PLATFORM_IDS_MAX_AGE_MS = 1_000;

export function createPlatformIdsSource(client: ObjectClient, options: { maxAgeMs?: number; now?: () => number } = {}): () => Promise<ReadonlySet<string>> {
  const maxAgeMs = options.maxAgeMs ?? PLATFORM_IDS_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  let last: { at: number; ids: Promise<ReadonlySet<string>> } | undefined;
  return () => {
    // `at` is when the LIST started: a result is never older than maxAgeMs from its request.
    if (last && now() - last.at < maxAgeMs) return last.ids;
    // Only namespaces without the tenant label: a tenant's own namespaces (the gateway and
    // onboarding label every one with the id its name starts with) are never the platform's,
    // and they are nearly all of them, so the LIST stays the platform's size, not the tenants'.
    // A namespace labelled by hand for a tenant whose id its name does not spell is no longer
    // seen here (platformIds would have counted it); nothing in Warren writes such a label.
    const ids = client.list(NAMESPACES_PATH, `!${TENANT_LABEL}`).then((namespaces) => platformIds(namespaces, TENANT_LABEL));
    const entry = { at: now(), ids };
    last = entry;
    ids.catch(() => { if (last === entry) last = undefined; }); // a failed LIST is not reused
    return ids;
  };
}
