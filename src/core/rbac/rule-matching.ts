// Does one PolicyRule allow one request? The predicates of kube's
// pkg/apis/rbac/v1 helpers and the RBAC authorizer's RuleAllows, kept exact
// because tenants read kube's docs and expect kube's answers.
import type { AuthorizationAttributes, PolicyRule } from './types.ts';

export const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/**
 * `combined` is "resource" or "resource/subresource". "*" matches everything,
 * subresources included; "*\/sub" matches that subresource of any resource; a plain
 * "pods" never matches "pods/log".
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource !== '' && r === `*/${subresource}`) return true;
  }
  return false;
}

/**
 * An empty resourceNames list allows any name. A non-empty one allows only those
 * names, so a request with no name (create, list, watch, deletecollection) never
 * matches it: that is kube's behaviour, not an oversight.
 */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** "*" matches every path; a trailing "*" is a prefix match ("/apis/*" matches "/apis/" and below, not "/apis"). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === ALL || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!attrs.isResourceRequest) return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return verbMatches(rule, attrs.verb)
    && apiGroupMatches(rule, attrs.apiGroup)
    && resourceMatches(rule, combined, attrs.subresource)
    && resourceNameMatches(rule, attrs.name);
}
