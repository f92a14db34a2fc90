// kube's RBAC escalation and bind checks (pkg/registry/rbac and its validation
// package), over a tenant's own policy and in its own terms. A caller may write
// a Role or ClusterRole only if it already holds every rule the role grants, or
// may `escalate` on that role resource; it may write a binding only if it holds
// every rule of the referenced role, or may `bind` that role. Without them, RBAC
// write access would be cluster-admin with extra steps.
//
// Where Warren is stricter than kube, on purpose:
// - no system:masters bypass (kube's EscalationAllowed): inside a tenant that group
//   is just a name a tenant admin may put in a credential;
// - no exemption for updates that touch only ownerReferences/finalizers: the check
//   sees the final object only, and the tenant's GC never writes through the gateway.
import { ApiError, notFound } from '../api-error.ts';
import { authorize } from './authorize.ts';
import { covers } from './covers.ts';
import type { PolicyIndex } from './policy-index.ts';
import { describeMissing, goQuote, goQuoteList } from './rule-strings.ts';
import { aggregateErrors, roleRefRules, visitRulesFor } from './rule-resolver.ts';
import { withAuthenticatedGroup } from './subjects.ts';
import { policyRulesOf, roleRefOf } from './rule-shape.ts';
import { RBAC_GROUP, type PolicyRule, type RoleRef, type UserInfo } from './types.ts';

export type RoleResource = 'roles' | 'clusterroles';
export type BindingResource = 'rolebindings' | 'clusterrolebindings';
export type RbacWriteResource = RoleResource | BindingResource;

export const RBAC_WRITE_RESOURCES: ReadonlySet<string> = new Set<RbacWriteResource>(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings']);

/** What an aggregationRule needs: it can gather anything, so only a holder of everything may set or change it. */
export const FULL_AUTHORITY: readonly PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

/** Every rule the user holds in the namespace ('' = cluster-wide rules only), and the resolution errors met. */
export function rulesFor(index: PolicyIndex, user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(index, user, namespace, (_source, rule, error) => {
    if (rule) rules.push(rule);
    if (error !== undefined) errors.push(error);
    return true;
  });
  return { rules, errors };
}

/**
 * kube's ConfirmNoEscalation: undefined when the user holds every rule in the
 * namespace, else kube's message, e.g.
 * `user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{...}`.
 */
export function confirmNoEscalation(index: PolicyIndex, caller: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const user = withAuthenticatedGroup(caller);
  const held = rulesFor(index, user, namespace);
  const result = covers(held.rules, rules);
  if (result.covered) return undefined;
  const who = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)})`;
  const missing = 'tooLarge' in result
    ? `the rules break down into more permissions than can be checked; grant fewer combinations per rule`
    : describeMissing(result.missing).join('\n');
  const errors = held.errors.length > 0 ? `; resolution errors: [${aggregateErrors(held.errors)}]` : '';
  return `${who} is attempting to grant RBAC permissions not currently held:\n${missing}${errors}`;
}

/** `<resource>.rbac.authorization.k8s.io "<name>" is forbidden: <why>`, as kube's NewForbidden writes it. */
function refused(resource: RbacWriteResource, name: string, why: string): ApiError {
  const qualified = `${resource}.${RBAC_GROUP}`;
  return new ApiError('Forbidden', `${qualified} ${goQuote(name)} is forbidden: ${why}`, { name, group: RBAC_GROUP, kind: resource });
}

function allowed(index: PolicyIndex, user: UserInfo, attrs: { verb: string; resource: string; name: string; namespace: string; apiGroup?: string }): boolean {
  return authorize({
    user, verb: attrs.verb, isResourceRequest: true, path: '', apiGroup: attrs.apiGroup ?? RBAC_GROUP,
    resource: attrs.resource, subresource: '', name: attrs.name, namespace: attrs.namespace,
  }, index).allowed;
}

export interface RoleWrite {
  resource: RoleResource;
  /** The request's namespace ('' for a ClusterRole): where the caller's rules are gathered. */
  namespace: string;
  /** The name in the request URL ('' on create), as kube's escalate check uses it. */
  requestName: string;
  /** The role as written (its name, rules and aggregationRule are read; any of them may be forged). */
  role: { metadata: { name?: string }; rules?: unknown; aggregationRule?: unknown };
}

/** kube's RoleEscalationAuthorized, then ConfirmNoEscalation over the role's rules (and full authority for an aggregationRule). */
export function checkRoleWrite(index: PolicyIndex, user: UserInfo, write: RoleWrite): ApiError | undefined {
  const rules = policyRulesOf(write.role.rules);
  if (allowed(index, user, { verb: 'escalate', resource: write.resource, name: write.requestName, namespace: write.namespace })) return undefined;
  const name = write.role.metadata.name ?? write.requestName;
  const why = confirmNoEscalation(index, user, write.namespace, rules);
  if (why !== undefined) return refused(write.resource, name, why);
  if (write.resource === 'clusterroles' && (hasSelectors(write.role.aggregationRule) || hasSelectors(index.clusterRole(name)?.aggregationRule))) {
    // Setting, changing or removing an aggregationRule (the stored role has one): it can
    // gather anything, so kube asks for full authority either way.
    if (confirmNoEscalation(index, user, '', FULL_AUTHORITY) !== undefined) {
      return refused(write.resource, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
  return undefined;
}

/** Any non-empty clusterRoleSelectors, however forged, counts as an aggregationRule: refusing is the safe side. */
function hasSelectors(rule: unknown): boolean {
  if (!rule || typeof rule !== 'object') return false;
  const selectors = (rule as { clusterRoleSelectors?: unknown }).clusterRoleSelectors;
  if (selectors === undefined || selectors === null) return false;
  return !Array.isArray(selectors) || selectors.length > 0;
}

export interface BindingWrite {
  resource: BindingResource;
  /** The request's namespace ('' for a ClusterRoleBinding). */
  namespace: string;
  /** The binding as written (its name and roleRef are read; either may be forged). */
  binding: { metadata: { name?: string }; roleRef?: unknown };
}

/** The role resource a roleRef names, for the bind check; undefined for a kind kube does not know. */
function boundResource(ref: RoleRef): RoleResource | undefined {
  if (ref.kind === 'ClusterRole') return 'clusterroles';
  if (ref.kind === 'Role') return 'roles';
  return undefined;
}

/**
 * kube's BindingAuthorized, then ConfirmNoEscalation over the referenced role's
 * rules in the binding's namespace. A roleRef that does not resolve is kube's 404
 * (`clusterroles.rbac.authorization.k8s.io "x" not found`) unless the caller may bind it.
 */
export function checkBindingWrite(index: PolicyIndex, user: UserInfo, write: BindingWrite): ApiError | undefined {
  const ref = roleRefOf(write.binding.roleRef);
  const resource = boundResource(ref);
  // A kind kube does not know grants nothing (the policy index resolves it to no rules);
  // the upstream's validation refuses it with kube's 422.
  if (!resource) return undefined;
  if (allowed(index, user, { verb: 'bind', resource, name: ref.name, namespace: write.namespace, apiGroup: ref.apiGroup })) return undefined;
  const rules = roleRefRules(index, ref, write.namespace);
  if (typeof rules === 'string') return notFound({ group: RBAC_GROUP, resource, name: ref.name });
  const why = confirmNoEscalation(index, user, write.namespace, rules);
  return why === undefined ? undefined : refused(write.resource, write.binding.metadata.name ?? '', why);
}
