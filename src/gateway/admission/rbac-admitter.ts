// Kube's RBAC escalation and bind checks as the chain's first admitter: on
// the final object of every write of a Role, ClusterRole, RoleBinding or
// ClusterRoleBinding, in the tenant's terms, with the tenant's own policy and
// the caller's identity (authz/rbac-write-admission.ts holds the rules).
// Before a 403, as authorization does (handler.ts), the RBAC informers are
// proven current and the write judged again: a grant made a moment ago (a
// RoleBinding just written) must not be refused because the cache lags.
import { ApiError } from '../../core/api-error.ts';
import { admitRbacWrite } from '../authz/rbac-write-admission.ts';
import type { TenantPolicies } from '../authz/tenant-policies.ts';
import { tenantOf } from '../identity.ts';
import type { Admitter } from './admission-chain.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC_RESOURCES = new Set(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings']);
const WRITES = new Set(['create', 'update', 'patch']);

/** How long a write about to be refused waits for the RBAC informers to prove themselves current. */
const RBAC_CATCH_UP_MS = 1_000;

export function rbacAdmitter(policies: TenantPolicies, catchUp?: (timeoutMs: number) => Promise<boolean>): Admitter {
  return {
    name: 'rbac-escalation',
    start({ req, ctx, info }) {
      if (info.apiGroup !== RBAC_GROUP || !RBAC_RESOURCES.has(info.resource) || info.subresource || !WRITES.has(info.verb)) return undefined;
      return {
        async admit(final) {
          const judge = () => admitRbacWrite(policies.indexFor(ctx.id), tenantOf(req), info, final.tenant);
          try {
            judge();
          } catch (err) {
            if (!(err instanceof ApiError) || err.code !== 403 || !catchUp || !(await catchUp(RBAC_CATCH_UP_MS))) throw err;
            judge();
          }
        },
      };
    },
  };
}
