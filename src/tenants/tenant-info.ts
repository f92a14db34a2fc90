// What the gateway needs from a Tenant object, and nothing else: a pure
// mapping so the rules (which id counts, when credentials stop counting) are
// table-tested apart from the informer that feeds them.
import type { TenantInfo } from './tenant-directory.ts';
import type { Tenant } from './tenant-crd.ts';

/** The TenantInfo of a Tenant, or undefined while it has no id (not yet onboarded). */
export function tenantInfoOf(tenant: Tenant): TenantInfo | undefined {
  const id = tenant.status?.id || tenant.spec?.id;
  if (!id) return undefined;
  const info: TenantInfo = {
    id,
    name: tenant.metadata.name ?? '',
    // A tenant being deleted is Terminating whatever its status says: its credentials must stop at once.
    phase: tenant.metadata.deletionTimestamp ? 'Terminating' : tenant.status?.phase || 'Pending',
    suspended: tenant.spec?.suspended === true,
    podSecurity: tenant.spec?.podSecurity ?? 'baseline',
  };
  if (tenant.metadata.uid) info.uid = tenant.metadata.uid;
  const createdAt = tenant.metadata.creationTimestamp ? new Date(tenant.metadata.creationTimestamp) : undefined;
  if (createdAt && !Number.isNaN(createdAt.getTime())) info.createdAt = createdAt;
  const notBefore = latest(tenant.spec?.credentials?.revokeBefore, tenant.status?.credentialsNotBefore);
  if (notBefore) info.credentialsNotBefore = notBefore;
  if (tenant.status?.clusters) info.clusters = [...tenant.status.clusters];
  if (tenant.spec?.placement) info.placement = tenant.spec.placement;
  if (tenant.spec?.defaultPlacement) info.defaultPlacement = tenant.spec.defaultPlacement;
  const quota = tenant.spec?.quota;
  if (quota && Object.values(quota).some((v) => v !== undefined)) {
    info.quota = {};
    if (quota.namespaces !== undefined) info.quota.namespaces = quota.namespaces;
    if (quota.objectsPerResource !== undefined) info.quota.objectsPerResource = quota.objectsPerResource;
    for (const k of ['cpu', 'memory', 'storage'] as const) if (quota[k] !== undefined) info.quota[k] = quota[k];
  }
  return info;
}

/** The later of two RFC 3339 instants; an unparsable one is ignored (the schema rejects them at admission). */
function latest(...instants: (string | undefined)[]): Date | undefined {
  let best: Date | undefined;
  for (const text of instants) {
    if (!text) continue;
    const at = new Date(text);
    if (Number.isNaN(at.getTime())) continue;
    if (!best || at > best) best = at;
  }
  return best;
}

/**
 * Which of several Tenants claiming one id the directory believes. Onboarding
 * refuses duplicates, but a spec.id can be written before it does: the one the
 * controller confirmed (status.id) wins, then the oldest, then by name, so every
 * gateway replica picks the same.
 */
export function pickTenant(claimants: Tenant[], id: string): Tenant | undefined {
  const rank = (t: Tenant): [number, string, string] => [t.status?.id === id ? 0 : 1, t.metadata.creationTimestamp ?? '', t.metadata.name ?? ''];
  return [...claimants].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1].localeCompare(rb[1]) || ra[2].localeCompare(rb[2]);
  })[0];
}

/**
 * What the directory's informer keeps of a Tenant once its TenantInfo is made:
 * only what the id index and pickTenant read (name, creationTimestamp,
 * spec.id, status.id) and the resourceVersion the informer compares on a
 * relist. The rest (managedFields, conditions, users, quota) is dropped in
 * place, because the informer's store holds this very object: at 1,000 idle
 * tenants a whole Tenant per tenant was several KiB of gateway memory each.
 */
export function shrinkToIdentity(tenant: Tenant): void {
  const { name, uid, resourceVersion, creationTimestamp, deletionTimestamp } = tenant.metadata;
  const specId = tenant.spec?.id;
  const statusId = tenant.status?.id;
  for (const key of Object.keys(tenant) as (keyof Tenant)[]) if (key !== 'metadata' && key !== 'apiVersion' && key !== 'kind') delete tenant[key];
  tenant.metadata = {
    ...(name !== undefined ? { name } : {}),
    ...(uid !== undefined ? { uid } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    ...(creationTimestamp !== undefined ? { creationTimestamp } : {}),
    ...(deletionTimestamp !== undefined ? { deletionTimestamp } : {}),
  };
  if (specId) tenant.spec = { id: specId };
  if (statusId) tenant.status = { id: statusId };
}
