// Upstream namespaces are DNS labels (63 characters); the prefix `<id>-` takes
// 7, so a tenant namespace gets 56, and names of tenant cluster-scoped objects
// that upstream checks as DNS subdomains get 246. The checks themselves, for
// every prefixed kind, are in prefixed-name-check.ts.
import type { ApiError } from '../api-error.ts';
import { checkPrefixedName, nameBudget } from './prefixed-name-check.ts';

export const NAMESPACE_BUDGET = nameBudget('label')!;
/** Names of tenant cluster-scoped objects that upstream checks as DNS subdomains. */
export const CLUSTER_NAME_BUDGET = nameBudget('subdomain')!;

/**
 * 422 for a namespace (as the tenant wrote it) longer than the budget or not a
 * DNS label, with kube's messages and the tenant's limit; else null. An empty
 * name is left to the upstream (generateName, "name or generateName is required").
 */
export function checkNamespaceBudget(namespace: string): ApiError | null {
  return checkPrefixedName('label', { kind: 'Namespace', group: '', name: namespace });
}
