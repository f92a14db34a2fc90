// The RBAC authorizer: allow if any rule reachable from the user's bindings
// allows the request, otherwise no opinion (RBAC never denies outright). The
// reason strings are kube's, because `kubectl auth can-i` and 403 messages show them.
import { forbidden, forbiddenPath, type ApiError } from '../api-error.ts';
import { asPolicyIndex, type PolicyIndex } from './policy-index.ts';
import { ruleAllows } from './rule-matching.ts';
import { aggregateErrors, visitRulesFor } from './rule-resolver.ts';
import { withAuthenticatedGroup } from './subjects.ts';
import type { AuthorizationAttributes, Decision, PolicySnapshot } from './types.ts';

/**
 * Decides one request. The user is given the implicit system:authenticated group
 * (see withAuthenticatedGroup) so that default bindings to it hold however the
 * caller authenticated. Pass a PolicyIndex when deciding more than once per snapshot.
 */
export function authorize(attrs: AuthorizationAttributes, policy: PolicySnapshot | PolicyIndex): Decision {
  const index = asPolicyIndex(policy);
  const request = { ...attrs, user: withAuthenticatedGroup(attrs.user) };
  let reason: string | undefined;
  const errors: string[] = [];
  visitRulesFor(index, request.user, request.namespace, (source, rule, error) => {
    if (rule && source && ruleAllows(request, rule)) {
      reason = `RBAC: allowed by ${source()}`;
      return false;
    }
    if (error !== undefined) errors.push(error);
    return true;
  });
  if (reason !== undefined) return { allowed: true, reason };
  return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregateErrors(errors)}` : '' };
}

/**
 * The 403 kube-apiserver answers a denied request with:
 * `pods "x" is forbidden: User "u" cannot get resource "pods/log" in API group "" in the namespace "n"[: reason]`,
 * or `forbidden: User "u" cannot get path "/x"[: reason]` for a non-resource request.
 */
export function forbiddenError(attrs: AuthorizationAttributes, reason: string): ApiError {
  if (!attrs.isResourceRequest) return forbiddenPath({ user: attrs.user.name, verb: attrs.verb, path: attrs.path }, reason);
  return forbidden({
    user: attrs.user.name,
    verb: attrs.verb,
    resource: attrs.resource,
    ...(attrs.subresource ? { subresource: attrs.subresource } : {}),
    ...(attrs.apiGroup ? { group: attrs.apiGroup } : {}),
    ...(attrs.name ? { name: attrs.name } : {}),
    ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
  }, reason);
}
