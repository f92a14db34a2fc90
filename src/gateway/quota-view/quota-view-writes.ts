// The quota view `tenant-quota` (core/tenancy/quota/quota-view.ts) is the
// platform's, shown to the tenant read-only: a write to it gets the 403 kube
// gives a user without rights to it, in tenant terms, whatever the tenant's own
// RBAC says (its admins hold `*` on resourcequotas). Before, a tenant could edit
// it and onboarding put it back a while later. A deletecollection of quotas
// leaves it out, as if the tenant's rights covered every quota but that one.
import { forbidden } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import { TENANT_QUOTA_NAME } from '../../core/tenancy/quota/quota-view.ts';

const isQuotas = (info: RequestInfo): boolean => info.isResourceRequest && info.apiGroup === '' && info.resource === 'resourcequotas';
const WRITES = new Set(['create', 'update', 'patch', 'delete']);

/** Throws the 403 when the write names the view: by URL (update, patch, delete, status), or by body (a create). */
export function refuseQuotaViewWrite(info: RequestInfo, user: string | undefined, body?: KubeObject): void {
  if (!isQuotas(info) || !WRITES.has(info.verb)) return;
  const name = info.name || (info.verb === 'create' ? body?.metadata?.name : undefined);
  if (name !== TENANT_QUOTA_NAME) return;
  throw forbidden({
    resource: 'resourcequotas', verb: info.verb, name,
    ...(info.subresource ? { subresource: info.subresource } : {}),
    ...(info.namespace ? { namespace: info.namespace } : {}),
    ...(user !== undefined ? { user } : {}),
  }, '');
}

/** A deletecollection of quotas deletes the tenant's own, never the view: a field selector term (kube's, `!=`) says so. */
export function sparesQuotaView(info: RequestInfo, query: URLSearchParams): void {
  if (!isQuotas(info) || info.verb !== 'deletecollection') return;
  const current = query.get('fieldSelector');
  query.set('fieldSelector', current ? `${current},metadata.name!=${TENANT_QUOTA_NAME}` : `metadata.name!=${TENANT_QUOTA_NAME}`);
}
