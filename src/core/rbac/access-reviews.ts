// SelfSubjectAccessReview and SelfSubjectRulesReview, answered from the tenant's
// RBAC the way kube's registry/authorization handlers answer them, so that
// `kubectl auth can-i` and `kubectl auth can-i --list` tell the truth.
import { badRequest, invalid } from '../api-error.ts';
import type { StatusCause } from '../types.ts';
import { authorize } from './authorize.ts';
import { asPolicyIndex, type PolicyIndex } from './policy-index.ts';
import { aggregateErrors, visitRulesFor } from './rule-resolver.ts';
import { withAuthenticatedGroup } from './subjects.ts';
import type { AuthorizationAttributes, PolicySnapshot, UserInfo } from './types.ts';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

export interface SelfSubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  /** Only an authorizer that denies outright sets it; RBAC never does, so it stays absent. */
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

const REVIEW_TARGET = { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', name: '' };

// kube's ValidateSelfSubjectAccessReviewSpec; the cause messages are field.Error bodies.
function specErrors(spec: SelfSubjectAccessReviewSpec): StatusCause[] {
  const { resourceAttributes: res, nonResourceAttributes: non } = spec;
  if (res && non) {
    const shown = `authorization.NonResourceAttributes{Path:${JSON.stringify(non.path ?? '')}, Verb:${JSON.stringify(non.verb ?? '')}}`;
    return [{ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', message: `Invalid value: ${shown}: cannot be specified in combination with resourceAttributes` }];
  }
  if (!res && !non) {
    return [{ type: 'FieldValueInvalid', field: 'spec.resourceAttributes', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' }];
  }
  return [];
}

/** The attributes an access review asks about (kube's ResourceAttributesFrom / NonResourceAttributesFrom). */
export function reviewAttributes(spec: SelfSubjectAccessReviewSpec, user: UserInfo): AuthorizationAttributes {
  const res = spec.resourceAttributes;
  if (res) {
    return {
      user, verb: res.verb ?? '', isResourceRequest: true, path: '', apiGroup: res.group ?? '', resource: res.resource ?? '',
      subresource: res.subresource ?? '', name: res.name ?? '', namespace: res.namespace ?? '',
    };
  }
  const non = spec.nonResourceAttributes ?? {};
  return {
    user, verb: non.verb ?? '', isResourceRequest: false, path: non.path ?? '', apiGroup: '', resource: '', subresource: '', name: '', namespace: '',
  };
}

/** Throws 422 Invalid for a spec with neither or both attribute kinds, as kube does. */
export function selfSubjectAccessReview(
  spec: SelfSubjectAccessReviewSpec, user: UserInfo, policy: PolicySnapshot | PolicyIndex,
): SubjectAccessReviewStatus {
  const causes = specErrors(spec);
  if (causes.length > 0) throw invalid(REVIEW_TARGET, causes);
  const decision = authorize(reviewAttributes(spec, user), policy);
  const status: SubjectAccessReviewStatus = { allowed: decision.allowed };
  if (decision.reason) status.reason = decision.reason;
  return status;
}

/**
 * Every rule the user holds in the namespace: ClusterRoleBinding rules, then the
 * namespace's RoleBinding rules, unmerged and in that order, as kube lists them
 * (kubectl compacts them for display). Throws 400 "no namespace on request" when
 * namespace is empty, as kube does. Unresolvable roleRefs land in evaluationError.
 */
export function selfSubjectRulesReview(namespace: string, user: UserInfo, policy: PolicySnapshot | PolicyIndex): SubjectRulesReviewStatus {
  if (!namespace) throw badRequest('no namespace on request');
  const status: SubjectRulesReviewStatus = { resourceRules: [], nonResourceRules: [], incomplete: false };
  const errors: string[] = [];
  visitRulesFor(asPolicyIndex(policy), withAuthenticatedGroup(user), namespace, (_source, rule, error) => {
    if (error !== undefined) errors.push(error);
    if (!rule) return true;
    if ((rule.resources ?? []).length > 0) {
      const out: ResourceRule = { verbs: [...rule.verbs] };
      if (rule.apiGroups?.length) out.apiGroups = [...rule.apiGroups];
      out.resources = [...(rule.resources ?? [])];
      if (rule.resourceNames?.length) out.resourceNames = [...rule.resourceNames];
      status.resourceRules.push(out);
    }
    if ((rule.nonResourceURLs ?? []).length > 0) {
      status.nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...(rule.nonResourceURLs ?? [])] });
    }
    return true;
  });
  if (errors.length > 0) status.evaluationError = aggregateErrors(errors);
  return status;
}
