// Rule targetCluster matching. The scheduler owns matchesClusterAffinity
// (src/core/propagation/scheduler); until it lands this is a local copy of the
// same contract, Karmada's util.ClusterMatches: exclude first, then label
// selector, field selector (provider/region; zone against spec.zones), names.
// TODO: switch to the scheduler's export when it is merged.
import { fromLabelSelectorObject, matchesLabels } from '../../selectors/index.ts';
import type { Cluster, ClusterAffinity, FieldSelectorRequirement } from '../karmada-types.ts';

export function matchesClusterAffinity(affinity: ClusterAffinity, cluster: Cluster): boolean {
  const name = cluster.metadata.name ?? '';
  if ((affinity.exclude ?? []).includes(name)) return false;
  if (affinity.labelSelector) {
    let reqs;
    try {
      reqs = fromLabelSelectorObject(affinity.labelSelector);
    } catch {
      return false;
    }
    if (reqs === null || !matchesLabels(reqs, cluster.metadata.labels)) return false;
  }
  for (const expr of affinity.fieldSelector?.matchExpressions ?? []) {
    if (!fieldMatches(expr, cluster)) return false;
  }
  const names = affinity.clusterNames ?? [];
  return names.length === 0 || names.includes(name);
}

function fieldMatches(expr: FieldSelectorRequirement, cluster: Cluster): boolean {
  const values = expr.values ?? [];
  if (expr.key === 'zone') {
    const zones = cluster.spec.zones ?? (cluster.spec.zone ? [cluster.spec.zone] : []);
    if (expr.operator === 'In') return zones.length > 0 && zones.every((z) => values.includes(z));
    if (expr.operator === 'NotIn') return zones.every((z) => !values.includes(z));
    return false;
  }
  const value = expr.key === 'provider' ? cluster.spec.provider : expr.key === 'region' ? cluster.spec.region : undefined;
  // NodeSelectorRequirement semantics: In needs the field present and listed; NotIn holds when absent.
  if (expr.operator === 'In') return value !== undefined && value !== '' && values.includes(value);
  if (expr.operator === 'NotIn') return value === undefined || value === '' || !values.includes(value);
  return false;
}
