// Each tenant's RBAC, in the tenant's own terms, ready for the authorizer.
// One informer per RBAC resource watches every tenant's objects upstream (by
// the tenant label), so the cost is shared; a tenant's policy index is rebuilt
// lazily, only after one of its own objects changed.
import type { KubeObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import {
  buildPolicyIndex, defaultClusterRoleBindings, defaultClusterRoles,
  type ClusterRole, type ClusterRoleBinding, type PolicyIndex, type Role, type RoleBinding,
} from '../../core/rbac/index.ts';

export interface RbacSource {
  /** Current upstream objects of one RBAC resource that carry the tenant label with this id. */
  objectsOf(resource: RbacResource, tenantId: string): KubeObject[];
  /** Registers a callback for changes, with the tenant id the changed object belongs to. */
  onChange(listener: (tenantId: string) => void): void;
}

export type RbacResource = 'roles' | 'rolebindings' | 'clusterroles' | 'clusterrolebindings';

export interface TenantPolicies {
  indexFor(tenantId: string): PolicyIndex;
}

/**
 * Built-in roles every tenant has without storing them (kube's bootstrap policy):
 * the tenant's own objects of the same name take precedence.
 */
function withDefaults<T extends { metadata: { name: string } }>(defaults: T[], own: T[]): T[] {
  const names = new Set(own.map((o) => o.metadata.name));
  return [...defaults.filter((d) => !names.has(d.metadata.name)), ...own];
}

export function createTenantPolicies(source: RbacSource): TenantPolicies {
  const cache = new Map<string, PolicyIndex>();
  source.onChange((tenantId) => cache.delete(tenantId));
  const own = <T>(resource: RbacResource, tenantId: string): T[] => {
    const ctx = { id: tenantId };
    const out: T[] = [];
    for (const obj of source.objectsOf(resource, tenantId)) {
      const view = toTenantObject(ctx, structuredClone(obj));
      if (view?.metadata.name) out.push(view as unknown as T);
    }
    return out;
  };
  return {
    indexFor(tenantId) {
      let index = cache.get(tenantId);
      if (!index) {
        index = buildPolicyIndex({
          roles: own<Role>('roles', tenantId),
          roleBindings: own<RoleBinding>('rolebindings', tenantId),
          clusterRoles: withDefaults(defaultClusterRoles(), own<ClusterRole>('clusterroles', tenantId)),
          clusterRoleBindings: withDefaults(defaultClusterRoleBindings(), own<ClusterRoleBinding>('clusterrolebindings', tenantId)),
        });
        cache.set(tenantId, index);
      }
      return index;
    },
  };
}

/** The tenant an upstream RBAC object belongs to, from its label. */
export function tenantOfObject(obj: KubeObject): string | undefined {
  return obj.metadata.labels?.[TENANT_LABEL];
}
