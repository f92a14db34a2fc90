// Authorization for the embedded apiserver, as kube-apiserver's chain with
// --authorization-mode=RBAC: system:masters is allowed everything (kube's
// privileged-group authorizer, ahead of RBAC), everyone else is decided by
// Kubernetes RBAC over this server's own Roles, ClusterRoles and bindings, plus
// kube's bootstrap roles and bindings (discovery, basic-user, public info,
// issuer discovery) where the store has no object of that name. A refusal is
// kube's 403. The decision itself is src/core/rbac's, shared with the gateway.
import type { RequestInfo } from '../../core/request-info.ts';
import {
  authorize, buildPolicyIndex, selfSubjectAccessReview, type SelfSubjectAccessReviewSpec, type SubjectAccessReviewStatus, defaultClusterRoleBindings, requestAttributes, defaultClusterRoles, forbiddenError, RBAC_GROUP,
  type ClusterRole, type ClusterRoleBinding, type PolicyIndex, type Role, type RoleBinding, type UserInfo,
} from '../../core/rbac/index.ts';
import { resourceKey } from '../../core/resources/resource-def.ts';
import type { Store } from '../store/store.ts';
import { MASTERS_GROUP } from './authn.ts';

/** Throws kube's 403 when the user may not; the request is parsed only when RBAC must decide. */
export type Authorizer = ((user: UserInfo, requestInfo: () => RequestInfo) => void) & {
  /** SelfSubjectAccessReview: what the same authorizer would decide for the user. */
  review(user: UserInfo, spec: SelfSubjectAccessReviewSpec): SubjectAccessReviewStatus;
};

/** kube's system:service-account-issuer-discovery, bound to every ServiceAccount. */
const ISSUER_DISCOVERY_ROLE: ClusterRole = {
  apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: 'system:service-account-issuer-discovery' },
  rules: [{ verbs: ['get'], nonResourceURLs: ['/.well-known/openid-configuration', '/openid/v1/jwks'] }],
};
const ISSUER_DISCOVERY_BINDING: ClusterRoleBinding = {
  apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'system:service-account-issuer-discovery' },
  roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'system:service-account-issuer-discovery' },
  subjects: [{ apiGroup: RBAC_GROUP, kind: 'Group', name: 'system:serviceaccounts' }],
};

function withDefaults<T extends { metadata: { name: string } }>(stored: T[], defaults: T[]): T[] {
  const names = new Set(stored.map((o) => o.metadata.name));
  return [...stored, ...defaults.filter((d) => !names.has(d.metadata.name))];
}

export function createAuthorizer(store: Store): Authorizer {
  // The index is rebuilt only when the store has moved on since the last decision.
  let cached: { revision: number; index: PolicyIndex } | undefined;
  const policy = (): PolicyIndex => {
    const revision = store.revision();
    if (cached?.revision === revision) return cached.index;
    const items = <T>(resource: string): T[] => store.list(resourceKey(RBAC_GROUP, resource)).items as unknown as T[];
    const index = buildPolicyIndex({
      roles: items<Role>('roles'),
      roleBindings: items<RoleBinding>('rolebindings'),
      clusterRoles: withDefaults(items<ClusterRole>('clusterroles'), [...defaultClusterRoles(), ISSUER_DISCOVERY_ROLE]),
      clusterRoleBindings: withDefaults(items<ClusterRoleBinding>('clusterrolebindings'), [...defaultClusterRoleBindings(), ISSUER_DISCOVERY_BINDING]),
    });
    cached = { revision, index };
    return index;
  };
  const check = (user: UserInfo, requestInfo: () => RequestInfo): void => {
    if (user.groups.includes(MASTERS_GROUP)) return;
    const attrs = requestAttributes(user, requestInfo());
    const decision = authorize(attrs, policy());
    if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
  };
  const review = (user: UserInfo, spec: SelfSubjectAccessReviewSpec): SubjectAccessReviewStatus =>
    (user.groups.includes(MASTERS_GROUP) ? { allowed: true } : selfSubjectAccessReview(spec, user, policy()));
  return Object.assign(check, { review });
}
