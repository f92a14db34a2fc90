// The tenant's objects of the counted resources (core/tenancy/quota), read from
// the upstream on demand and kept a short while. Only read under the tenant's
// lock (quota-locks.ts): writes through this gateway update the snapshot as they
// succeed, so the next check sees them at once; anything else (deletes, the
// upstream's own controllers, another gateway replica) is seen once the
// snapshot is older than the TTL or was invalidated by a delete.
import type { KubeObject } from '../../core/types.ts';
import { COUNTED_RESOURCES, type QuotaObject } from '../../core/tenancy/quota/object-demand.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { visibleToTenant } from '../../core/tenancy/quota/tenant-visible.ts';
import type { Upstream } from '../../kube/upstream.ts';

export const DEFAULT_USAGE_TTL_MS = 2_000;

/** group/resource/namespace/name (upstream spellings). */
export const objectKey = (group: string, resource: string, namespace: string, name: string): string => `${group}/${resource}/${namespace}/${name}`;

export interface TenantObjects {
  objects: Map<string, QuotaObject>;
}

export interface QuotaUsageCache {
  get(tenantId: string): Promise<TenantObjects>;
  invalidate(tenantId: string): void;
}

const VERSION: Record<string, string> = { '': 'v1', apps: 'v1', batch: 'v1' };

function collectionPath(group: string, resource: string): string {
  return group ? `/apis/${group}/${VERSION[group] ?? 'v1'}/${resource}` : `/api/v1/${resource}`;
}

async function listOwned(upstream: Upstream, group: string, resource: string, tenantId: string): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  let next: string | undefined;
  do {
    const query = new URLSearchParams({ labelSelector: `${TENANT_LABEL}=${tenantId}`, limit: '500' });
    if (next) query.set('continue', next);
    const answer = await upstream.request<{ items?: KubeObject[]; metadata?: { continue?: string } }>('GET', `${collectionPath(group, resource)}?${query.toString()}`);
    // Unreadable usage must not let a write through unchecked: refuse with the upstream's answer.
    if (answer.status !== 200) throw new Error(`listing ${resource} for the tenant quota: HTTP ${answer.status}`);
    // Only what the tenant can see counts (tenant-visible.ts).
    out.push(...(answer.body.items ?? []).filter((item) => visibleToTenant(tenantId, item)));
    next = answer.body.metadata?.continue || undefined;
  } while (next);
  return out;
}

export async function loadTenantObjects(upstream: Upstream, tenantId: string): Promise<TenantObjects> {
  const objects = new Map<string, QuotaObject>();
  const lists = await Promise.all(COUNTED_RESOURCES.map(async (key) => {
    const [group = '', resource = ''] = key.split('/');
    return { group, resource, items: await listOwned(upstream, group, resource, tenantId) };
  }));
  for (const { group, resource, items } of lists) {
    for (const obj of items) objects.set(objectKey(group, resource, obj.metadata.namespace ?? '', obj.metadata.name ?? ''), { group, resource, obj });
  }
  return { objects };
}

export function createQuotaUsageCache(upstream: Upstream, options: { ttlMs?: number; now?: () => number } = {}): QuotaUsageCache {
  const ttl = options.ttlMs ?? DEFAULT_USAGE_TTL_MS;
  const now = options.now ?? Date.now;
  const snapshots = new Map<string, { at: number; value: TenantObjects }>();
  return {
    async get(tenantId) {
      // Expired snapshots go, so idle tenants cost nothing here.
      for (const [id, s] of snapshots) if (now() - s.at >= ttl) snapshots.delete(id);
      const held = snapshots.get(tenantId);
      if (held && now() - held.at < ttl) return held.value;
      const value = await loadTenantObjects(upstream, tenantId);
      snapshots.set(tenantId, { at: now(), value });
      return value;
    },
    invalidate(tenantId) {
      snapshots.delete(tenantId);
    },
  };
}
