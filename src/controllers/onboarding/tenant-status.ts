// Writing a Tenant: status through the status subresource, finalizers through
// the object. Both PUT with the resourceVersion read, so a concurrent change
// is a 409 and the reconcile retries on fresh data rather than overwriting it.
import { tenantPath, type Tenant, type TenantStatus } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { jsonEqual } from '../../core/json-equal.ts';

/** Writes status when it differs; returns the Tenant as now stored. */
export async function writeTenantStatus(client: ObjectClient, tenant: Tenant, status: TenantStatus): Promise<Tenant> {
  if (jsonEqual(tenant.status ?? {}, status)) return tenant;
  const name = tenant.metadata.name ?? '';
  return client.update<Tenant>(`${tenantPath(name)}/status`, { ...tenant, status });
}

export async function setFinalizer(client: ObjectClient, tenant: Tenant, finalizer: string, present: boolean): Promise<Tenant> {
  const finalizers = tenant.metadata.finalizers ?? [];
  if (finalizers.includes(finalizer) === present) return tenant;
  const next = present ? [...finalizers, finalizer] : finalizers.filter((f) => f !== finalizer);
  return client.update<Tenant>(tenantPath(tenant.metadata.name ?? ''), { ...tenant, metadata: { ...tenant.metadata, finalizers: next } });
}
