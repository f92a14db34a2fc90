// Label selectors between tenant and upstream. The tenant label must look to
// the tenant as if no object carried it (decision): a requirement that needs
// the label (`k`, `k=v`, `k in (...)`, `k>1`) selects nothing, and one that
// needs its absence (`!k`, `k!=v`, `k notin (...)`) selects everything. We
// answer with an upstream selector of the same meaning rather than a 400, which
// would itself reveal the label.
import { formatLabelSelector, parseLabelSelector, type LabelRequirement } from '../selectors/index.ts';
import { TENANT_LABEL } from './tenant-id.ts';

export interface LabelSelectorOptions {
  /**
   * Add `tenancy.warren.dev/tenant=<id>`: for requests that span namespaces or
   * cluster-scoped objects, where the namespace prefix alone does not isolate.
   */
  requireTenantLabel: boolean;
  /** Maps the tenant's own keys (ClusterRoles keep their label keys in the tenant's space, cluster-role-labels.ts). */
  mapKey?: (key: string) => string;
}

const ABSENCE_OPERATORS = new Set(['!', '!=', 'notin']);

/** The upstream selector string ('' when it selects everything). Throws BadRequest for a malformed selector. */
export function toUpstreamLabelSelector(id: string, selector: string, options: LabelSelectorOptions): string {
  const requirements = parseLabelSelector(selector);
  const map = options.mapKey ?? ((key: string) => key);
  const own = requirements.filter((r) => r.key !== TENANT_LABEL).map((r) => ({ ...r, key: map(r.key) }));
  const impossible = requirements.some((r) => r.key === TENANT_LABEL && !ABSENCE_OPERATORS.has(r.operator));
  const added: LabelRequirement[] = [];
  if (options.requireTenantLabel || impossible) added.push({ key: TENANT_LABEL, operator: '=', values: [id] });
  // `k=<id>,!k` can match no object: the upstream answers an empty list or a quiet watch.
  if (impossible) added.push({ key: TENANT_LABEL, operator: '!', values: [] });
  return formatLabelSelector([...own, ...added]);
}

/** Inverse for selectors the tenant could have written (those with no tenant-label requirement). */
export function toTenantLabelSelector(_id: string, upstream: string): string {
  return formatLabelSelector(parseLabelSelector(upstream).filter((r) => r.key !== TENANT_LABEL));
}
