// Which member clusters a tenant may use: Tenant.spec.clusters resolved
// against the Cluster objects registered in the host, into status.clusters
// (what the gateway shows the tenant, and the propagation engine schedules to).
//   names          → those of them that exist;
//   labelSelector  → every Cluster it matches (an empty selector matches all);
//   both           → the union;  neither → none.
// Only existing Clusters are listed: a name registered later joins when its
// Cluster appears (the controller re-queues tenants on Cluster events).
import { fromLabelSelectorObject, matchesLabels } from '../../core/selectors/index.ts';
import type { KubeObject } from '../../core/types.ts';
import type { TenantSpec } from '../../gateway/tenants/tenant-crd.ts';

export const CLUSTERS_PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';

/** Sorted, so the status does not change when only the listing order does. */
export function resolveTenantClusters(allowed: TenantSpec['clusters'], clusters: readonly KubeObject[]): string[] {
  if (!allowed) return [];
  const names = new Set(allowed.names ?? []);
  const selector = fromLabelSelectorObject(allowed.labelSelector);
  const chosen = clusters.filter((c) => names.has(c.metadata.name ?? '') || (selector !== null && matchesLabels(selector, c.metadata.labels)));
  return [...new Set(chosen.map((c) => c.metadata.name ?? ''))].filter(Boolean).sort();
}
