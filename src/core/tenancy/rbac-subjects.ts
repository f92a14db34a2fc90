// A binding's subjects, tenant → upstream (ADR 0028). A ServiceAccount subject
// is stored upstream as a user in the tenant's `warren:<id>:` space
// (references.ts), so the upstream no longer validates it as a ServiceAccount:
// kube's own checks for that kind (ValidateRoleBindingSubject) are made here,
// with kube's wording, before the kind is lost. Users and groups keep their
// kind and are validated upstream.
import { invalid } from '../api-error.ts';
import type { StatusCause } from '../types.ts';
import { dns1123SubdomainErrors } from '../selectors/label-syntax.ts';
import { invalid as invalidCause, notSupported, required } from '../propagation/validation/field-errors.ts';
import { toUpstreamSubject, type Subject } from './references.ts';
import type { TenantContext } from './tenant-context.ts';

function serviceAccountCauses(s: Record<string, unknown>, at: string, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = typeof s.name === 'string' ? s.name : '';
  if (name === '') causes.push(required(`${at}.name`));
  else for (const detail of dns1123SubdomainErrors(name)) causes.push(invalidCause(`${at}.name`, name, detail));
  const apiGroup = typeof s.apiGroup === 'string' ? s.apiGroup : '';
  if (apiGroup !== '') causes.push(notSupported(`${at}.apiGroup`, apiGroup, ['']));
  if (!namespaced && !s.namespace) causes.push(required(`${at}.namespace`));
  return causes;
}

export interface BindingTarget {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  /** Tenant name of the binding, for messages. */
  name: string;
  /** Tenant namespace of a RoleBinding (a ServiceAccount subject without one takes it). */
  namespace?: string;
}

/** The upstream subjects of a binding; a 422 in tenant terms for a ServiceAccount subject kube would refuse. */
export function toUpstreamSubjects(ctx: TenantContext, subjects: Array<Record<string, unknown>>, binding: BindingTarget): Subject[] {
  const namespaced = binding.kind === 'RoleBinding';
  const causes = subjects.flatMap((s, i) => (s.kind === 'ServiceAccount' ? serviceAccountCauses(s, `subjects[${i}]`, namespaced) : []));
  if (causes.length > 0) throw invalid({ group: 'rbac.authorization.k8s.io', kind: binding.kind, name: binding.name }, causes);
  return subjects.map((s) => toUpstreamSubject(ctx, s as unknown as Subject, namespaced ? binding.namespace : undefined));
}
