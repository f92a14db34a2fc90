// Policies as the tenant wrote them: the gateway's own translation (names and
// resourceSelectors without the tenant prefix), so Karmada's matching rules
// run in the tenant's terms, where a tenant can only ever name its own objects.
import type { KubeObject } from '../../core/types.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import { toUpstreamGroup } from '../../core/tenancy/names.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { crdOfKind, type EngineInformers } from './engine-informers.ts';

export function tenantViews<T extends KubeObject>(tctx: TenantContext, objects: readonly T[]): T[] {
  return objects.map((o) => toTenantObject(tctx, structuredClone(o)) as T | undefined).filter((o): o is T => o !== undefined);
}

/**
 * The translation context of a tenant, knowing the scope of its custom kinds from its CRDs: a
 * cluster-scoped custom object's name carries the tenant prefix upstream and on the members.
 */
export function tenantContextOf(informers: EngineInformers, tenantId: string): TenantContext {
  return {
    id: tenantId,
    customKindNamespaced: (group, kind) => {
      const crd = crdOfKind(informers, toUpstreamGroup(tenantId, group), kind);
      return crd ? (crd.spec as { scope?: string } | undefined)?.scope !== 'Cluster' : undefined;
    },
  };
}
