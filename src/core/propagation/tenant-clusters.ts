// Which member clusters a tenant may use: Tenant.spec.clusters resolved
// against the Cluster objects registered in the host. One rule for the
// gateway's view (status.clusters, via onboarding) and the engine's scheduling:
//   names          → those of them that exist;
//   labelSelector  → every Cluster it matches (an empty selector matches all);
//   both           → the union;  neither → none.
import { fromLabelSelectorObject, matchesLabels, type LabelSelectorObject } from '../selectors/index.ts';
import type { KubeObject } from '../types.ts';

export interface TenantClusterRule {
  names?: string[];
  labelSelector?: LabelSelectorObject;
}

/** Sorted names, so a status does not change when only the listing order does. */
export function resolveTenantClusters(rule: TenantClusterRule | undefined, clusters: readonly KubeObject[]): string[] {
  if (!rule) return [];
  const names = new Set(rule.names ?? []);
  const selector = fromLabelSelectorObject(rule.labelSelector);
  const chosen = clusters.filter((c) => names.has(c.metadata.name ?? '') || (selector !== null && matchesLabels(selector, c.metadata.labels)));
  return [...new Set(chosen.map((c) => c.metadata.name ?? ''))].filter(Boolean).sort();
}

/** The Cluster objects themselves, in the given order. */
export function allowedClusters<T extends KubeObject>(rule: TenantClusterRule | undefined, clusters: readonly T[]): T[] {
  const allowed = new Set(resolveTenantClusters(rule, clusters));
  return clusters.filter((c) => allowed.has(c.metadata.name ?? ''));
}
