// The RBAC API the gateway and onboarding use: decide, review, index, seed.
export type {
  AggregationRule, AuthorizationAttributes, ClusterRole, ClusterRoleBinding, Decision, PolicyRule, PolicySnapshot, Role,
  RoleBinding, RoleRef, Subject, UserInfo,
} from './types.ts';
export { RBAC_GROUP } from './types.ts';
export { authorize, forbiddenError } from './authorize.ts';
export { requestAttributes } from './request-attributes.ts';
export type {
  NonResourceAttributes, NonResourceRule, ResourceAttributes, ResourceRule, SelfSubjectAccessReviewSpec,
  SubjectAccessReviewStatus, SubjectRulesReviewStatus,
} from './access-reviews.ts';
export { reviewAttributes, selfSubjectAccessReview, selfSubjectRulesReview } from './access-reviews.ts';
export type { PolicyIndex } from './policy-index.ts';
export { buildPolicyIndex } from './policy-index.ts';
export { aggregateClusterRoles } from './aggregation.ts';
export { defaultClusterRoleBindings, defaultClusterRoles } from './default-roles.ts';
export { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, serviceAccountUsername, withAuthenticatedGroup } from './subjects.ts';
export { ruleAllows } from './rule-matching.ts';
export type { BindingResource, BindingWrite, RbacWriteResource, RoleResource, RoleWrite } from './escalation.ts';
export { checkBindingWrite, checkRoleWrite, confirmNoEscalation, FULL_AUTHORITY, RBAC_WRITE_RESOURCES, rulesFor } from './escalation.ts';
export type { CoverResult } from './covers.ts';
export { breakdownRule, covers, ruleCovers } from './covers.ts';
export { compactRules, compactString, describeMissing } from './rule-strings.ts';
export type { ImpersonatedUser, ImpersonationRequest } from './impersonation.ts';
export { impersonate, impersonationChecks, impersonationRequestOf, splitServiceAccountUsername } from './impersonation.ts';
