// Walks the rules that apply to a user in a namespace, in kube's order:
// ClusterRoleBindings first (they grant everywhere), then, only when the request
// has a namespace, that namespace's RoleBindings. That second condition is what
// keeps a RoleBinding from ever granting a cluster-scoped request, and the
// namespace lookup is what keeps it from granting in any other namespace.
import { RBAC_GROUP } from './types.ts';
import { firstApplyingSubject } from './subjects.ts';
import type { PolicyIndex } from './policy-index.ts';
import type { PolicyRule, RoleRef, Subject, UserInfo } from './types.ts';

/** Describes where a rule came from, in the words of kube's "RBAC: allowed by ..." reason. */
export type RuleSource = () => string;

/** Return false to stop the walk. Exactly one of rule (with its source) or error is given. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

// Listers report a missing object with the singular resource, as client-go's generated listers do.
const notFound = (resource: 'role' | 'clusterrole', name: string): string => `${resource}.${RBAC_GROUP} "${name}" not found`;

/** A binding's roleRef resolved to rules, or the error kube would report. A Role is always looked up in the binding's own namespace. */
export function roleRefRules(index: PolicyIndex, ref: RoleRef, bindingNamespace: string): PolicyRule[] | string {
  if (ref.kind === 'Role') {
    if (!bindingNamespace) return notFound('role', ref.name);
    const role = index.role(bindingNamespace, ref.name);
    return role ? role.rules ?? [] : notFound('role', ref.name);
  }
  if (ref.kind === 'ClusterRole') {
    const role = index.clusterRole(ref.name);
    return role ? role.rules ?? [] : notFound('clusterrole', ref.name);
  }
  return `unsupported role reference kind: "${ref.kind}"`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

export function visitRulesFor(index: PolicyIndex, user: UserInfo, namespace: string, visit: RuleVisitor): void {
  for (const binding of index.clusterRoleBindingsFor(user)) {
    const subjects = binding.subjects ?? [];
    const at = firstApplyingSubject(user, subjects, '');
    if (at < 0) continue;
    const rules = roleRefRules(index, binding.roleRef, '');
    if (typeof rules === 'string') {
      if (!visit(undefined, undefined, rules)) return;
      continue;
    }
    const subject = subjects[at];
    const source: RuleSource = () =>
      `ClusterRoleBinding ${JSON.stringify(binding.metadata.name)} of ${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)} to ${subject ? describeSubject(subject, '') : ''}`;
    for (const rule of rules) if (!visit(source, rule, undefined)) return;
  }
  if (!namespace) return;
  for (const binding of index.roleBindingsFor(user, namespace)) {
    const subjects = binding.subjects ?? [];
    const at = firstApplyingSubject(user, subjects, namespace);
    if (at < 0) continue;
    const rules = roleRefRules(index, binding.roleRef, namespace);
    if (typeof rules === 'string') {
      if (!visit(undefined, undefined, rules)) return;
      continue;
    }
    const subject = subjects[at];
    const source: RuleSource = () =>
      `RoleBinding ${JSON.stringify(`${binding.metadata.name}/${binding.metadata.namespace}`)} of ${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)} to ${subject ? describeSubject(subject, namespace) : ''}`;
    for (const rule of rules) if (!visit(source, rule, undefined)) return;
  }
}

/**
 * kube's utilerrors.NewAggregate(...).Error(): one message as is, several as
 * "[a, b]", duplicates dropped.
 */
export function aggregateErrors(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  if (unique.length === 0) return '';
  return unique.length === 1 ? unique[0] ?? '' : `[${unique.join(', ')}]`;
}
