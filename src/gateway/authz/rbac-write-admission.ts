// Kube's RBAC escalation and bind checks on writes of Roles, ClusterRoles,
// RoleBindings and ClusterRoleBindings (k8s.io/kubernetes/pkg/registry/rbac):
// a caller may only grant what it holds, unless it may `escalate` (roles) or
// `bind` (bindings). Called by the gateway's admission chain on the final
// object of every create, update and patch, in the tenant's terms. The upstream
// cannot make this check: it sees Warren's credential, never the tenant user.
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import {
  checkBindingWrite, checkRoleWrite, RBAC_GROUP, RBAC_WRITE_RESOURCES, type BindingResource, type PolicyIndex,
} from '../../core/rbac/index.ts';
import type { Identity } from '../identity.ts';

const WRITES = new Set(['create', 'update', 'patch']);

/** Throws a 403 Forbidden ApiError when writing `tenantObject` would escalate the caller's rights. */
export function admitRbacWrite(policy: PolicyIndex, identity: Identity, info: RequestInfo, tenantObject: KubeObject): void {
  if (!info.isResourceRequest || info.apiGroup !== RBAC_GROUP || info.subresource || !WRITES.has(info.verb)) return;
  if (!RBAC_WRITE_RESOURCES.has(info.resource)) return;
  const user = { name: identity.user, groups: identity.groups };
  // The URL decides the scope, never the body: a Role is judged in the request's namespace.
  const namespace = info.resource === 'roles' || info.resource === 'rolebindings' ? info.namespace : '';
  const written = { ...tenantObject, metadata: { ...tenantObject.metadata, name: tenantObject.metadata?.name ?? info.name } };
  const refusal = info.resource === 'roles' || info.resource === 'clusterroles'
    ? checkRoleWrite(policy, user, { resource: info.resource, namespace, requestName: info.name, role: written })
    : checkBindingWrite(policy, user, { resource: info.resource as BindingResource, namespace, binding: written });
  if (refusal) throw refusal;
}
