// Phase 4: the tenant's cluster-admin, admin, edit and view ClusterRoles (kube's
// defaults, with the roles that aggregate into admin/edit/view and the
// discovery roles bound to every authenticated user), and the binding of its
// admins to cluster-admin. Built in the tenant's view and translated, so roles,
// aggregation selectors and subjects land exactly as the gateway writes them.
import type { KubeObject } from '../../core/types.ts';
import { toUpstreamObject } from '../../core/tenancy/object-translation.ts';
import { defaultClusterRoleBindings, defaultClusterRoles } from '../../core/rbac/default-roles.ts';
import { RBAC_GROUP } from '../../core/rbac/types.ts';
import type { TenantUser } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { ensureObject, type EnsureOptions, type EnsureOutcome } from './ensure-object.ts';

export const CLUSTER_ROLES_PATH = `/apis/${RBAC_GROUP}/v1/clusterroles`;
export const CLUSTER_ROLE_BINDINGS_PATH = `/apis/${RBAC_GROUP}/v1/clusterrolebindings`;
export const TENANT_ADMINS_BINDING = 'warren:tenant-admins';

/** The tenant-view binding of every admin user to cluster-admin. */
export function buildTenantAdminsBinding(users: readonly TenantUser[]): KubeObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: TENANT_ADMINS_BINDING, labels: { 'app.kubernetes.io/managed-by': 'warren' } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'cluster-admin' },
    // Sorted: the binding must not change when only the order of spec.users does.
    subjects: users.filter((u) => u.admin === true).map((u) => u.name).sort().map((name) => ({ apiGroup: RBAC_GROUP, kind: 'User', name })),
  };
}

export interface TenantRbac {
  roles: KubeObject[];
  bindings: KubeObject[];
}

// kube's default roles are the same for every tenant, and building them runs the
// aggregation of admin/edit/view (2-3% of `warren serve` CPU when onboarding 1,000
// tenants): built once here, as JSON, and parsed per tenant (a fresh copy, which
// toUpstreamObject translates in place; JSON.parse is cheaper than structuredClone here).
let defaults: { roles: string; bindings: string } | undefined;

export function buildTenantRbac(id: string, users: readonly TenantUser[]): TenantRbac {
  const ctx = { id };
  defaults ??= { roles: JSON.stringify(defaultClusterRoles()), bindings: JSON.stringify(defaultClusterRoleBindings()) };
  return {
    roles: (JSON.parse(defaults.roles) as KubeObject[]).map((r) => toUpstreamObject(ctx, r)),
    bindings: [...(JSON.parse(defaults.bindings) as KubeObject[]), buildTenantAdminsBinding(users)].map((b) => toUpstreamObject(ctx, b)),
  };
}

/**
 * Roles and bindings are written side by side (no order is needed: a binding may
 * name a role that does not exist yet, and aggregation follows whenever the
 * aggregated-to roles land). Outcomes come back in build order: roles, then bindings.
 */
export async function ensureTenantRbac(client: ObjectClient, id: string, users: readonly TenantUser[], options: Pick<EnsureOptions, 'likelyMissing'> = {}): Promise<EnsureOutcome[]> {
  const { roles, bindings } = buildTenantRbac(id, users);
  return Promise.all([
    // An aggregated role's rules are the aggregation controller's to fill (kube's
    // clusterrole-aggregation controller upstream): owning them would fight it.
    ...roles.map((role) => ensureObject(client, CLUSTER_ROLES_PATH, role, role.aggregationRule ? { ...options, ignore: ['rules'] } : options)),
    ...bindings.map((binding) => ensureObject(client, CLUSTER_ROLE_BINDINGS_PATH, binding, options)),
  ]);
}
