// Upstream namespaces are DNS labels (63 characters); the prefix `<id>-` takes
// 7, so a tenant namespace gets 56. A longer one is refused here, in tenant
// terms, before the upstream can answer with an error that shows the prefix.
// The shape is checked in tenant terms too: `<id>-` makes `-shop` a valid
// upstream label (`<id>--shop`), so upstream validation cannot see it.
import { invalid, type ApiError } from '../api-error.ts';
import { TENANT_ID_LENGTH } from './tenant-id.ts';
import { dns1123LabelErrors } from '../selectors/label-syntax.ts';

const DNS_LABEL_MAX = 63;
const DNS_SUBDOMAIN_MAX = 253;
export const NAMESPACE_BUDGET = DNS_LABEL_MAX - (TENANT_ID_LENGTH + 1);
/** Names of tenant cluster-scoped objects that upstream checks as DNS subdomains. */
export const CLUSTER_NAME_BUDGET = DNS_SUBDOMAIN_MAX - (TENANT_ID_LENGTH + 1);

/**
 * 422 for a namespace (as the tenant wrote it) longer than the budget or not a
 * DNS label, with kube's messages and the tenant's limit; else null. An empty
 * name is left to the upstream (generateName, "name or generateName is required").
 */
export function checkNamespaceBudget(namespace: string): ApiError | null {
  const problems: string[] = [];
  if (namespace.length > NAMESPACE_BUDGET) problems.push(`must be no more than ${NAMESPACE_BUDGET} characters`);
  // The shape only: the length that matters is the tenant's budget above, not kube's 63.
  if (namespace !== '') problems.push(...dns1123LabelErrors(namespace).filter((e) => !e.startsWith('must be no more than')));
  if (problems.length === 0) return null;
  return invalid({ kind: 'Namespace', name: namespace }, problems.map((problem) => ({
    type: 'FieldValueInvalid',
    field: 'metadata.name',
    message: `Invalid value: ${JSON.stringify(namespace)}: ${problem}`,
  })));
}

/**
 * 422 for a cluster-scoped name over its budget. `kind` and `group` are the
 * tenant's spelling, for the message; `field` names where the value sits.
 */
export function checkClusterNameBudget(target: { kind: string; group?: string; name: string }, field = 'metadata.name'): ApiError | null {
  if (target.name.length <= CLUSTER_NAME_BUDGET) return null;
  return invalid(target, [{
    type: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${JSON.stringify(target.name)}: must be no more than ${CLUSTER_NAME_BUDGET} characters`,
  }]);
}
