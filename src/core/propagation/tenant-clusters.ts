// Which member Clusters a tenant may use: Tenant.spec.clusters names them, or
// selects them by label, or both (a cluster counts if either says so). A Tenant
// that says nothing may use every registered member: a tenant provisioned by a
// portal with no placement rules still gets its workloads somewhere.
import { fromLabelSelectorObject, matchesLabels, type LabelSelectorObject } from '../selectors/index.ts';
import type { Cluster } from './karmada-types.ts';

export interface TenantClusterRule {
  names?: string[];
  labelSelector?: LabelSelectorObject;
}

export function allowedClusters(rule: TenantClusterRule | undefined, clusters: readonly Cluster[]): Cluster[] {
  if (!rule || (rule.names === undefined && rule.labelSelector === undefined)) return [...clusters];
  const names = new Set(rule.names ?? []);
  const selector = rule.labelSelector ? fromLabelSelectorObject(rule.labelSelector) : null;
  return clusters.filter((c) => names.has(c.metadata.name ?? '') || (selector !== null && matchesLabels(selector, c.metadata.labels)));
}
