// The tenant sees its quota (issue 14 item 9): a ResourceQuota `tenant-quota`
// in every tenant namespace (core/tenancy/quota/quota-view.ts says what it
// holds and why its keys never enforce anything). Onboarding makes sure each
// namespace has one with the Tenant's limits, repairs one that was changed
// beside the gateway (tenants cannot write it: gateway/quota-view), removes them
// when the Tenant sets no limit, and writes the cpu/memory/storage it counted.
// The gateway creates the view with each namespace a tenant creates (so it is
// there when the namespace is) and keeps the counts live; a namespace's view
// goes with the namespace. The engine's execution spaces get none.
import { ApiError } from '../../core/api-error.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { visibleToTenant } from '../../core/tenancy/quota/tenant-visible.ts';
import { NOT_EXECUTION_SPACE } from '../../core/propagation/execution-space.ts';
import {
  mergeUsed, NAMESPACES_KEY, QUOTA_VIEW_PREFIX, quotaViewObject, requestKeys, sameFigures, TENANT_QUOTA_NAME, viewHard, type TenantQuotaLimits,
} from '../../core/tenancy/quota/quota-view.ts';
import type { TenantStatus } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { NAMESPACES_PATH } from './reconcile-namespaces.ts';

export { QUOTA_VIEW_PREFIX };

interface ViewStatus { hard?: Record<string, string>; used?: Record<string, string> }

/** spec.hard of the view and the figures onboarding owns in status.used; pure. */
export function quotaViewFigures(limits: TenantQuotaLimits, usage: TenantStatus['usage']): { hard: Record<string, string>; used: Record<string, string> } {
  const used: Record<string, string> = {};
  for (const key of requestKeys(limits)) {
    const field = key.slice(`${QUOTA_VIEW_PREFIX}requests.`.length) as 'cpu' | 'memory' | 'storage';
    used[key] = String(usage?.[field] ?? '0');
  }
  return { hard: viewHard(limits), used };
}

const viewPath = (namespace: string): string => `/api/v1/namespaces/${namespace}/resourcequotas/${TENANT_QUOTA_NAME}`;

/**
 * Creates, repairs or (no limits) removes the view in each of the tenant's namespaces upstream.
 * `brandNew`: every namespace of the tenant was made by this very pass, so no view can exist yet.
 */
export async function ensureQuotaView(client: ObjectClient, id: string, limits: TenantQuotaLimits | undefined, usage: TenantStatus['usage'],
  options: { brandNew?: boolean } = {}): Promise<void> {
  const selector = `${TENANT_LABEL}=${id}`;
  if (options.brandNew && Object.keys(viewHard(limits)).length === 0) return;
  const views = (await client.list('/api/v1/resourcequotas', selector)).filter((q) => q.metadata.name === TENANT_QUOTA_NAME);
  const { hard, used: figures } = quotaViewFigures(limits ?? {}, usage);
  if (Object.keys(hard).length === 0) {
    for (const view of views) await client.remove(viewPath(view.metadata.namespace ?? ''));
    return;
  }
  const byNamespace = new Map(views.map((v) => [v.metadata.namespace ?? '', v]));
  const namespaces = (await client.list(NAMESPACES_PATH, `${selector},${NOT_EXECUTION_SPACE}`))
    .filter((n) => visibleToTenant(id, n) && !n.metadata.deletionTimestamp);
  // Until the gateway counts them, a new view shows the namespaces onboarding just counted.
  const seed: Record<string, string> = usage?.namespaces !== undefined && hard[NAMESPACES_KEY] !== undefined ? { [NAMESPACES_KEY]: String(usage.namespaces) } : {};
  for (const ns of namespaces) {
    const namespace = ns.metadata.name ?? '';
    let view = byNamespace.get(namespace);
    try {
      if (!view) view = await client.create(`/api/v1/namespaces/${namespace}/resourcequotas`, quotaViewObject(id, namespace, hard));
      else if (!sameFigures((view.spec as { hard?: Record<string, string> } | undefined)?.hard, hard) || view.metadata.labels?.[TENANT_LABEL] !== id) {
        view = await client.update(viewPath(namespace), { ...view, metadata: { ...view.metadata, labels: { ...view.metadata.labels, [TENANT_LABEL]: id } }, spec: { ...(view.spec ?? {}), hard } });
      }
      const status = view.status as ViewStatus | undefined;
      const used = mergeUsed({ ...seed, ...status?.used }, requestKeys(limits), figures, hard);
      if (sameFigures(status?.hard, hard) && sameFigures(status?.used, used)) continue;
      await client.update(`${viewPath(namespace)}/status`, { ...view, status: { hard, used } });
    } catch (err) {
      // A namespace being deleted refuses new objects (403), and another writer may have moved
      // the view on (409): the next pass sees the namespace as it is then.
      if (err instanceof ApiError && [403, 404, 409].includes(err.code)) continue;
      throw err;
    }
  }
}
