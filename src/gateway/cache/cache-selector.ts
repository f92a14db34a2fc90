// The label and field selectors of a cached read, as one predicate over
// upstream objects. The translator already rewrote the tenant's selectors to
// upstream terms (namespace-valued fields and prefixed names carry the prefix),
// and it added `tenancy.warren.dev/tenant=<id>` so that an upstream LIST would
// isolate. The cache isolates by its index instead, so that requirement is
// dropped here: it is what kept label-less objects (Events, Endpoints, ...)
// out of all-namespaces lists. A selector the tenant wrote on the tenant label
// itself was turned into an impossible pair (`k=<id>,!k`); that still selects
// nothing, as the tenant must see no object carrying the label.
import type { KubeObject } from '../../core/types.ts';
import { fieldValue, matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, type LabelRequirement } from '../../core/selectors/index.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';

export interface CachePredicate {
  matches(obj: KubeObject): boolean;
  /** No selector narrows the result (kube then reports remainingItemCount). */
  everything: boolean;
}

export interface SelectorScope {
  namespaced: boolean;
  /** Field label → object path, beyond metadata.name and metadata.namespace (ResourceDef.fieldSelectors). */
  fieldPaths?: Record<string, string>;
}

const NOTHING: CachePredicate = { matches: () => false, everything: false };

/**
 * Undefined when a field label is not one the cache knows for the resource:
 * the caller then forwards the request, so the upstream answers with its own
 * 400 (or serves a field the table does not list). Throws BadRequest for a
 * malformed selector, as the upstream would.
 */
export function compileCachePredicate(id: string, query: URLSearchParams, scope: SelectorScope): CachePredicate | undefined {
  const labels: LabelRequirement[] = [];
  for (const r of parseLabelSelector(query.get('labelSelector') ?? '')) {
    if (r.key !== TENANT_LABEL) labels.push(r);
    // Only the translator's own `=<id>` is expected; anything else on the label selects nothing.
    else if (!(r.operator === '=' || r.operator === '==' || r.operator === 'in') || r.values.length !== 1 || r.values[0] !== id) return NOTHING;
  }
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '');
  const paths: Record<string, string> = { 'metadata.name': '.metadata.name', ...(scope.fieldPaths ?? {}) };
  if (scope.namespaced) paths['metadata.namespace'] = '.metadata.namespace';
  if (fields.some((f) => !(f.field in paths))) return undefined;
  if (labels.length === 0 && fields.length === 0) return { matches: () => true, everything: true };
  const getField = (obj: KubeObject) => (field: string): string | undefined => {
    const path = paths[field];
    return path === undefined ? undefined : fieldValue(obj, path) ?? '';
  };
  return {
    everything: false,
    matches: (obj) => matchesLabels(labels, obj.metadata.labels) && matchesFields(fields, getField(obj)),
  };
}
