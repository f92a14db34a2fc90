// Policies as the tenant wrote them: the gateway's own translation (names and
// resourceSelectors without the tenant prefix), so Karmada's matching rules
// run in the tenant's terms, where a tenant can only ever name its own objects.
import type { KubeObject } from '../../core/types.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';

export function tenantViews<T extends KubeObject>(tctx: TenantContext, objects: readonly T[]): T[] {
  return objects.map((o) => toTenantObject(tctx, structuredClone(o)) as T | undefined).filter((o): o is T => o !== undefined);
}
