// Tenant-wide count quota (Tenant.spec.quota): the number of namespaces, and of
// objects of any one resource. What is counted, and how it is read upstream;
// the counter that creates reserve against is object-counts.ts, the admitter
// object-count-admitter.ts. Refusals read like kube's ResourceQuota admission,
// so tooling that recognises "exceeded quota" keeps working.
import { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { NOT_EXECUTION_SPACE } from '../../core/propagation/execution-space.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { KubeObject } from '../../core/types.ts';
import { visibleToTenant } from '../../core/tenancy/quota/tenant-visible.ts';
import type { TenantInfo } from '../../tenants/tenant-directory.ts';
import type { LoadedCount } from './object-counts.ts';

export const TENANT_QUOTA_NAME = 'tenant-quota';

/** kube's wording: exceeded quota: <name>, requested: <r>=1, used: <r>=<n>, limited: <r>=<max>. */
export function quotaExceeded(resource: string, used: number, limit: number): ApiError {
  return new ApiError('Forbidden', `${resource} is forbidden: exceeded quota: ${TENANT_QUOTA_NAME}, requested: count/${resource}=1, used: count/${resource}=${used}, limited: count/${resource}=${limit}`, { kind: resource });
}

/** One counted collection: which of the tenant's objects one create adds to. */
export interface CountTarget {
  /** group/resource, upstream spelling (a custom resource's group carries the tenant prefix). */
  key: string;
  /** The tenant's word for the resource, for the refusal. */
  resource: string;
  /** Upstream collection path across all namespaces. */
  collection: string;
  selector: string;
  limit: number;
  crd: boolean;
}

/** What a create counts against, or undefined when the tenant's quota says nothing about it. */
export function countTargetOf(tenant: TenantInfo, info: RequestInfo, fwd: ForwardedRequest): CountTarget | undefined {
  if (info.verb !== 'create' || info.subresource || !tenant.quota) return undefined;
  const isNamespace = info.apiGroup === '' && info.resource === 'namespaces';
  const limit = isNamespace && tenant.quota.namespaces !== undefined ? tenant.quota.namespaces : tenant.quota.objectsPerResource;
  if (limit === undefined) return undefined;
  const base = info.apiPrefix === 'api' ? `/api/${info.apiVersion}` : `/apis/${fwd.group}/${info.apiVersion}`;
  return {
    key: `${fwd.group}/${info.resource}`,
    resource: info.resource,
    collection: `${base}/${info.resource}`,
    // The engine's execution spaces (karmada-es-*) are not the tenant's to count.
    selector: isNamespace ? `${TENANT_LABEL}=${tenant.id},${NOT_EXECUTION_SPACE}` : `${TENANT_LABEL}=${tenant.id}`,
    limit,
    crd: info.resource === 'customresourcedefinitions',
  };
}

/** Object metadata is all a count needs: kube answers a list of it without the objects' bodies. */
const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json';

/**
 * Counts the tenant's objects of a collection upstream (all namespaces) that the tenant can see,
 * stopping once past `cap`. A collection upstream does not serve holds nothing (the create itself
 * answers 404); any other unreadable answer throws: a count that cannot be read must not let
 * creates through unchecked (the create is refused with a 500).
 */
export async function countTenantObjects(upstream: Upstream, tenantId: string, target: CountTarget, cap: number): Promise<LoadedCount> {
  let count = 0;
  let next: string | undefined;
  do {
    const query = new URLSearchParams({ labelSelector: target.selector, limit: '500' });
    if (next) query.set('continue', next);
    const answer = await upstream.request<{ items?: KubeObject[]; metadata?: { continue?: string } }>('GET', `${target.collection}?${query.toString()}`, undefined, { Accept: METADATA_ONLY });
    if (answer.status === 404 && !next) return { count: 0, complete: true };
    if (answer.status !== 200) throw new Error(`counting ${target.resource} for the tenant quota: HTTP ${answer.status}`);
    // The quota views (tenant-quota, one per namespace) are the platform's, not objects the tenant made.
    count += (answer.body.items ?? []).filter((item) => visibleToTenant(tenantId, item, { crd: target.crd }) && !(target.key === '/resourcequotas' && item.metadata?.name === TENANT_QUOTA_NAME)).length;
    next = answer.body.metadata?.continue || undefined;
  } while (next && count <= cap);
  return { count, complete: next === undefined };
}
