// How a reference to a kind is rewritten, from the kind's class and scope: the
// one place that decides it for ownerReferences, ObjectReferences, roleRefs...
import { rowOfKind } from './resource-classes.ts';
import { isTenantCrdGroupOf, type TenantContext } from './tenant-context.ts';
import { splitApiVersion, toUpstreamGroup } from './names.ts';
import { upstreamGroupView } from './resource-classes.ts';

export interface KindTreatment {
  /** The group is one of the tenant's CRD groups (prefixed upstream). */
  customGroup: boolean;
  namespaced: boolean;
  /** How the object's own name is mapped: kept, prefixed, or as a CRD name (`plural.<id>-group`). */
  name: 'keep' | 'prefix' | 'crd';
}

/** Treatment of a kind in tenant spelling (group '' for core). */
export function treatmentOf(ctx: TenantContext, group: string, kind: string): KindTreatment {
  if (isTenantCrdGroupOf(ctx, group)) {
    // Without the CRD at hand assume namespaced, the common case; the name is then kept.
    const namespaced = ctx.customKindNamespaced?.(group, kind) ?? true;
    return { customGroup: true, namespaced, name: namespaced ? 'keep' : 'prefix' };
  }
  const row = rowOfKind(group, kind);
  if (!row) return { customGroup: false, namespaced: true, name: 'keep' };
  if (row.class === 'tenant-cluster-scoped') {
    const crd = group === 'apiextensions.k8s.io' && kind === 'CustomResourceDefinition';
    return { customGroup: false, namespaced: false, name: crd ? 'crd' : 'prefix' };
  }
  return { customGroup: false, namespaced: row.namespaced, name: 'keep' };
}

/**
 * The tenant spelling of an upstream group, or undefined when it is another
 * tenant's (or any group a tenant may not see by name): a group that is not
 * ours and not a built-in one is never shown, whatever its suffix.
 */
export function tenantGroupOf(id: string, upstreamGroup: string): string | undefined {
  return upstreamGroupView(id, upstreamGroup)?.group;
}

/** apiVersion tenant → upstream, prefixing the group when it is a tenant CRD group. */
export function apiVersionToUpstream(ctx: TenantContext, apiVersion: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  if (group === '' || !isTenantCrdGroupOf(ctx, group)) return apiVersion;
  return `${toUpstreamGroup(ctx.id, group)}/${version}`;
}

/** apiVersion upstream → tenant; undefined for a group the tenant must not see. */
export function apiVersionToTenant(ctx: TenantContext, apiVersion: string): string | undefined {
  const { group, version } = splitApiVersion(apiVersion);
  if (group === '') return apiVersion;
  const tenantGroup = tenantGroupOf(ctx.id, group);
  return tenantGroup === undefined ? undefined : `${tenantGroup}/${version}`;
}
