// The tenant directory of a running gateway: an informer on the upstream's
// Tenant objects, so every replica sees suspension, revocation and deletion
// within one watch event, with no call on the request path.
import type { TenantDirectory, TenantInfo } from './tenant-directory.ts';
import type { Upstream } from '../kube/upstream.ts';
import { startInformer } from '../kube/informer.ts';
import { createCatchUp } from '../kube/informer-catch-up.ts';
import { TENANTS_PATH, type Tenant } from './tenant-crd.ts';
import { pickTenant, shrinkToIdentity, tenantInfoOf } from './tenant-info.ts';

export interface TenantDirectoryOptions {
  log?: (line: string) => void;
  /** Called after any Tenant changes (for metrics or cache invalidation in later filters). */
  onChange?: (name: string) => void;
}

const BY_ID = 'id';

export function startTenantDirectory(upstream: Upstream, options: TenantDirectoryOptions = {}): TenantDirectory & { stop(): void } {
  // TenantInfo is computed once per event, not per request: byId sits on every request's path.
  const infos = new Map<string, TenantInfo>();
  const informer = startInformer<Tenant>({
    upstream,
    listPath: TENANTS_PATH,
    // A Warren upstream bookmarks this watch on request: catchUp() can prove the directory current.
    progressNotify: true,
    ...(options.log ? { log: options.log } : {}),
    onEvent: (type, tenant) => {
      const name = tenant.metadata.name ?? '';
      const info = type === 'DELETED' ? undefined : tenantInfoOf(tenant);
      if (info) infos.set(name, info);
      else infos.delete(name);
      // Everything the gateway needs is in `info` now; the stored object keeps only its identity.
      if (type !== 'DELETED') shrinkToIdentity(tenant);
      options.onChange?.(name);
    },
  });
  informer.addIndex(BY_ID, (t) => {
    const id = t.status?.id || t.spec?.id;
    return id ? [id] : [];
  });

  return {
    byId(id) {
      const claimants = informer.byIndex(BY_ID, id);
      const tenant = claimants.length === 1 ? claimants[0] : pickTenant(claimants, id);
      return tenant ? infos.get(tenant.metadata.name ?? '') : undefined;
    },
    byName: (name) => infos.get(name),
    all: () => [...infos.values()],
    synced: () => informer.synced(),
    catchUp: createCatchUp(upstream, [informer], TENANTS_PATH),
    stop: () => informer.stop(),
  };
}
