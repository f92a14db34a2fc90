// Kube's RBAC escalation and bind checks as the chain's first admitter: on
// the final object of every write of a Role, ClusterRole, RoleBinding or
// ClusterRoleBinding, in the tenant's terms, with the tenant's own policy and
// the caller's identity (authz/rbac-write-admission.ts holds the rules).
import { admitRbacWrite } from '../authz/rbac-write-admission.ts';
import type { TenantPolicies } from '../authz/tenant-policies.ts';
import { tenantOf } from '../identity.ts';
import type { Admitter } from './admission-chain.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC_RESOURCES = new Set(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings']);
const WRITES = new Set(['create', 'update', 'patch']);

export function rbacAdmitter(policies: TenantPolicies): Admitter {
  return {
    name: 'rbac-escalation',
    start({ req, ctx, info }) {
      if (info.apiGroup !== RBAC_GROUP || !RBAC_RESOURCES.has(info.resource) || info.subresource || !WRITES.has(info.verb)) return undefined;
      return {
        admit(final) {
          admitRbacWrite(policies.indexFor(ctx.id), tenantOf(req), info, final.tenant);
        },
      };
    },
  };
}
