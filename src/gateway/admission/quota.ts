// Tenant-wide quota (Tenant.spec.quota), enforced by the gateway when a tenant
// creates something: the number of namespaces, and of objects of any one
// resource. Refusals read like kube's ResourceQuota admission, so tooling that
// recognises "exceeded quota" keeps working.
import { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { NOT_EXECUTION_SPACE } from '../../core/propagation/execution-space.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { KubeObject } from '../../core/types.ts';
import { visibleToTenant } from '../../core/tenancy/quota/tenant-visible.ts';
import type { TenantInfo } from '../tenant-directory.ts';

export const TENANT_QUOTA_NAME = 'tenant-quota';

/** kube's wording: exceeded quota: <name>, requested: <r>=1, used: <r>=<n>, limited: <r>=<max>. */
export function quotaExceeded(resource: string, used: number, limit: number): ApiError {
  return new ApiError('Forbidden', `${resource} is forbidden: exceeded quota: ${TENANT_QUOTA_NAME}, requested: count/${resource}=1, used: count/${resource}=${used}, limited: count/${resource}=${limit}`, { kind: resource });
}

/** Counts the tenant's objects of a resource upstream (all namespaces) that the tenant can see, up to `cap`. */
async function countOwned(upstream: Upstream, collection: string, selector: string, cap: number, tenantId: string): Promise<number> {
  let count = 0;
  let next: string | undefined;
  const crd = collection.endsWith('/customresourcedefinitions');
  do {
    const query = new URLSearchParams({ labelSelector: selector, limit: '500' });
    if (next) query.set('continue', next);
    const answer = await upstream.request<{ items?: KubeObject[]; metadata?: { continue?: string } }>('GET', `${collection}?${query.toString()}`);
    if (answer.status !== 200) return 0; // an unreadable collection is not a reason to refuse; the create itself will tell
    count += (answer.body.items ?? []).filter((item) => visibleToTenant(tenantId, item, { crd })).length;
    next = answer.body.metadata?.continue || undefined;
  } while (next && count <= cap);
  return count;
}

export async function checkTenantQuota(upstream: Upstream, tenant: TenantInfo, info: RequestInfo, fwd: ForwardedRequest): Promise<void> {
  if (info.verb !== 'create' || info.subresource || !tenant.quota) return;
  const isNamespace = info.apiGroup === '' && info.resource === 'namespaces';
  const limit = isNamespace && tenant.quota.namespaces !== undefined ? tenant.quota.namespaces : tenant.quota.objectsPerResource;
  if (limit === undefined) return;
  const base = info.apiPrefix === 'api' ? `/api/${info.apiVersion}` : `/apis/${fwd.group}/${info.apiVersion}`;
  // The engine's execution spaces (karmada-es-*) are not the tenant's to count.
  const selector = isNamespace ? `${TENANT_LABEL}=${tenant.id},${NOT_EXECUTION_SPACE}` : `${TENANT_LABEL}=${tenant.id}`;
  const used = await countOwned(upstream, `${base}/${info.resource}`, selector, limit, tenant.id);
  if (used >= limit) throw quotaExceeded(info.resource, used, limit);
}
