// Phase 6: what the tenant uses, for status.usage. Namespaces are one LIST of
// the upstream namespaces carrying the tenant label (every namespace the
// gateway or onboarding creates carries it). When the Tenant limits cpu, memory
// or storage, those are summed from the tenant's pods, workloads and claims by
// the same pure rules the gateway enforces at admission (core/tenancy/quota),
// so status and refusals never disagree on what counts. This is the report,
// not the enforcement: the gateway checks at admission from its own reads.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { visibleToTenant } from '../../core/tenancy/quota/tenant-visible.ts';
import { buildUsage, COUNTED_RESOURCES, type QuotaObject } from '../../core/tenancy/quota/object-demand.ts';
import { formatUsage, hasResourceLimits, type ResourceLimits } from '../../core/tenancy/quota/quota-decision.ts';
import type { TenantStatus } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { NAMESPACES_PATH } from './reconcile-namespaces.ts';
import { NOT_EXECUTION_SPACE } from '../../core/propagation/execution-space.ts';

const collectionPath = (group: string, resource: string): string => (group ? `/apis/${group}/v1/${resource}` : `/api/v1/${resource}`);

/** Usage for status; cpu, memory and storage only when the quota limits one of them (they cost more LISTs). */
export async function computeUsage(client: ObjectClient, id: string, quota?: ResourceLimits): Promise<NonNullable<TenantStatus['usage']>> {
  const selector = `${TENANT_LABEL}=${id}`;
  // The engine's execution spaces (karmada-es-*) do not count against the tenant's namespaces.
  const namespaces = await client.list(NAMESPACES_PATH, `${selector},${NOT_EXECUTION_SPACE}`);
  const visibleNamespaces = namespaces.filter((n) => visibleToTenant(id, n));
  if (!hasResourceLimits(quota)) return { namespaces: visibleNamespaces.length };
  const items: QuotaObject[] = [];
  await Promise.all(COUNTED_RESOURCES.map(async (key) => {
    const [group = '', resource = ''] = key.split('/');
    for (const obj of await client.list(collectionPath(group, resource), selector)) if (visibleToTenant(id, obj)) items.push({ group, resource, obj });
  }));
  return { namespaces: visibleNamespaces.length, ...formatUsage(buildUsage(items), quota) };
}
