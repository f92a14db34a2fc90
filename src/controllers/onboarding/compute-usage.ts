// Phase 6: what the tenant uses, for status.usage. Kept cheap: one LIST of the
// upstream namespaces carrying the tenant label (every namespace the gateway or
// onboarding creates carries it). The gateway enforces quota at admission from
// its own counts; this is the report, not the enforcement.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { TenantStatus } from '../../gateway/tenants/tenant-crd.ts';
import type { ObjectClient } from './object-client.ts';
import { NAMESPACES_PATH } from './reconcile-namespaces.ts';

export async function computeUsage(client: ObjectClient, id: string): Promise<NonNullable<TenantStatus['usage']>> {
  const namespaces = await client.list(NAMESPACES_PATH, `${TENANT_LABEL}=${id}`);
  return { namespaces: namespaces.length };
}
