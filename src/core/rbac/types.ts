// rbac.authorization.k8s.io/v1 shapes as plain JSON, and the attributes an
// authorizer is asked about (k8s.io/apiserver/pkg/authorization/authorizer).
// Optional arrays are optional because the wire allows them to be absent;
// kube treats absent and empty alike, and so do we.
import type { LabelSelectorObject } from '../selectors/index.ts';
import type { ObjectMeta } from '../types.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  /** 'User' | 'Group' | 'ServiceAccount'; anything else matches nobody. */
  kind: string;
  /** rbac.authorization.k8s.io for User and Group, '' for ServiceAccount. The authorizer does not look at it. */
  apiGroup?: string;
  name: string;
  /** ServiceAccount only; in a RoleBinding it defaults to the binding's namespace. */
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  /** 'Role' | 'ClusterRole' */
  kind: string;
  name: string;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorObject[];
}

interface RbacObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & { name: string };
}

export interface Role extends RbacObject {
  metadata: ObjectMeta & { name: string; namespace: string };
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends RbacObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: AggregationRule | null;
}

export interface RoleBinding extends RbacObject {
  metadata: ObjectMeta & { name: string; namespace: string };
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export interface ClusterRoleBinding extends RbacObject {
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

/** Everything RBAC needs to decide, taken at one moment. */
export interface PolicySnapshot {
  roles: readonly Role[];
  clusterRoles: readonly ClusterRole[];
  roleBindings: readonly RoleBinding[];
  clusterRoleBindings: readonly ClusterRoleBinding[];
}

/** user.Info: who is asking, after authentication. */
export interface UserInfo {
  name: string;
  groups: readonly string[];
}

/** authorizer.Attributes: what is being asked. Empty strings mean "not set", as in kube. */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** Non-resource requests only: the URL path. */
  path: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
  /** '' for cluster-scoped requests and for lists/watches across all namespaces. */
  namespace: string;
}

export interface Decision {
  allowed: boolean;
  /** kube's authorizer reason: "RBAC: allowed by ..." when allowed, "" or "RBAC: <resolution errors>" when not. */
  reason: string;
}
