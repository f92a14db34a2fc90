// How kube writes the rules an escalation refusal lists: CompactRules merges
// atoms that differ only by verb, CompactString prints each with Go's %q, and
// the lines are sorted and deduplicated (sets.String.List()). Checked against a
// real kube-apiserver 1.20:
//   {APIGroups:[""], Resources:["pods"], Verbs:["get" "list" "watch"]}
import type { PolicyRule } from './types.ts';

/** Go's %q for one string; JSON's escaping is the same for everything a tenant can usefully write. */
export function goQuote(value: string): string {
  return JSON.stringify(value);
}

/** Go's %q for a []string: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** kube's rbacv1helpers.CompactString. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuoteList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames)}`);
  if (rule.verbs.length) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** kube's CompactRules: rules with one group, one resource, verbs and nothing else merge by (group, resource). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = !rule.resourceNames?.length && !rule.nonResourceURLs?.length
      && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else simple.set(key, { apiGroups: [...(rule.apiGroups ?? [])], resources: [...(rule.resources ?? [])], verbs: [...rule.verbs] });
  }
  return [...out, ...simple.values()];
}

/** The sorted, distinct lines kube lists under "not currently held". */
export function describeMissing(missing: readonly PolicyRule[]): string[] {
  return [...new Set(compactRules(missing).map(compactString))].sort();
}
