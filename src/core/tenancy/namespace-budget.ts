// Upstream namespaces are DNS labels (63 characters); the prefix `<id>-` takes
// 7, so a tenant namespace gets 56. A longer one is refused here, in tenant
// terms, before the upstream can answer with an error that shows the prefix.
import { invalid, type ApiError } from '../api-error.ts';
import { TENANT_ID_LENGTH } from './tenant-id.ts';

const DNS_LABEL_MAX = 63;
const DNS_SUBDOMAIN_MAX = 253;
export const NAMESPACE_BUDGET = DNS_LABEL_MAX - (TENANT_ID_LENGTH + 1);
/** Names of tenant cluster-scoped objects that upstream checks as DNS subdomains. */
export const CLUSTER_NAME_BUDGET = DNS_SUBDOMAIN_MAX - (TENANT_ID_LENGTH + 1);

/** 422 for a namespace (as the tenant wrote it) longer than the budget, else null. */
export function checkNamespaceBudget(namespace: string): ApiError | null {
  if (namespace.length <= NAMESPACE_BUDGET) return null;
  return invalid({ kind: 'Namespace', name: namespace }, [{
    type: 'FieldValueInvalid',
    field: 'metadata.name',
    message: `Invalid value: ${JSON.stringify(namespace)}: must be no more than ${NAMESPACE_BUDGET} characters`,
  }]);
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
