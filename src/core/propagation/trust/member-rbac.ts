// A tenant's cluster-wide RBAC on a member (ADR 20). A member is shared: other
// tenants' namespaces live there, and its own users hold kube's built-in roles.
//  - A ClusterRoleBinding would grant its role in every namespace of the member:
//    refused (the Work and the binding say why). Grants reach a member only as
//    RoleBindings in the tenant's own namespaces.
//  - A ClusterRole is harmless until bound, except through aggregation: labels
//    `rbac.authorization.k8s.io/aggregate-to-*` would make the member's
//    controller-manager copy its rules into the member's built-in admin/edit/view
//    (power for everyone bound to those), and an aggregationRule would pull in
//    whatever roles it selects there. Both are removed from the member's copy;
//    its rules are the ones the template has upstream (already aggregated there
//    over the tenant's own roles only: the gateway forces the tenant label into
//    aggregation selectors).
//  - Subjects reach a member as toUpstreamObject wrote them: users and groups of
//    the tenant's `warren:<id>:` space (ADR 0028), ServiceAccounts included. No
//    member identity is one of them, so the member's token for a tenant
//    ServiceAccount holds nothing of the tenant's RBAC (ADR 20, "Tenant
//    ServiceAccounts on members"); workloads there use the gateway.
import type { KubeObject } from '../../types.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
// As the tenant wrote it, or as stored upstream in the tenant's own key space (`<id>.rbac...`, ADR 0028):
// the member's copy carries neither (its aggregationRule is gone too, so they would select nothing of its own).
const AGGREGATE_TO = /(^|\.)rbac\.authorization\.k8s\.io\/aggregate-to-/;

export const CLUSTER_ROLE_BINDING_REFUSED = 'ClusterRoleBindings are not propagated to member clusters: a cluster-wide grant there would reach other tenants\' namespaces; bind the ClusterRole with RoleBindings in your namespaces instead';

export type MemberRbac = { ok: true; obj: KubeObject } | { ok: false; reason: string };

const groupOf = (apiVersion: string | undefined): string => {
  const slash = (apiVersion ?? '').indexOf('/');
  return slash < 0 ? '' : (apiVersion ?? '').slice(0, slash);
};

/** The member's copy of an object of a tenant, as far as RBAC goes; other kinds pass unchanged. */
export function scopeRbacForMember(obj: KubeObject): MemberRbac {
  if (groupOf(obj.apiVersion) !== RBAC_GROUP) return { ok: true, obj };
  if (obj.kind === 'ClusterRoleBinding') return { ok: false, reason: CLUSTER_ROLE_BINDING_REFUSED };
  if (obj.kind !== 'ClusterRole') return { ok: true, obj };
  const out = structuredClone(obj);
  delete (out as { aggregationRule?: unknown }).aggregationRule;
  const labels = out.metadata.labels;
  if (labels) {
    for (const key of Object.keys(labels)) if (AGGREGATE_TO.test(key)) delete labels[key];
  }
  return { ok: true, obj: out };
}
