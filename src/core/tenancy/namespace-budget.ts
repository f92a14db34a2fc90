// Upstream namespaces are DNS labels (63 characters); the prefix `<id>-` takes
// 7, so a tenant namespace gets 56, and names of tenant cluster-scoped objects
// that upstream checks as DNS subdomains get 246. The checks themselves, for
// every prefixed kind, are in prefixed-name-check.ts.
import { nameBudget } from './prefixed-name-check.ts';

export const NAMESPACE_BUDGET = nameBudget('label')!;
/** Names of tenant cluster-scoped objects that upstream checks as DNS subdomains. */
export const CLUSTER_NAME_BUDGET = nameBudget('subdomain')!;
