// Builders for RBAC objects and requests, so each test states only what it is about.
import type {
  AuthorizationAttributes, ClusterRole, ClusterRoleBinding, PolicyRule, PolicySnapshot, Role, RoleBinding, Subject, UserInfo,
} from '../../../../src/core/rbac/index.ts';

export const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups });
export const User = (name: string): Subject => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
export const Group = (name: string): Subject => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
export const SA = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, ...(namespace ? { namespace } : {}) });

export const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });
export const urlRule = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ verbs, nonResourceURLs });

export const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { namespace, name }, rules });
export const clusterRole = (name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole =>
  ({ metadata: { name, ...(labels ? { labels } : {}) }, rules });
export const roleBinding = (namespace: string, name: string, ref: { kind: 'Role' | 'ClusterRole'; name: string }, subjects: Subject[]): RoleBinding =>
  ({ metadata: { namespace, name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...ref }, subjects });
export const clusterRoleBinding = (name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding =>
  ({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects });

export const snapshot = (parts: Partial<PolicySnapshot>): PolicySnapshot =>
  ({ roles: [], clusterRoles: [], roleBindings: [], clusterRoleBindings: [], ...parts });

/** A resource request; unspecified attributes are kube's "not set" (empty). */
export function request(u: UserInfo, verb: string, target: Partial<Omit<AuthorizationAttributes, 'user' | 'verb'>>): AuthorizationAttributes {
  return {
    user: u, verb, isResourceRequest: true, path: '', apiGroup: '', resource: '', subresource: '', name: '', namespace: '', ...target,
  };
}

export function pathRequest(u: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return { user: u, verb, isResourceRequest: false, path, apiGroup: '', resource: '', subresource: '', name: '', namespace: '' };
}
