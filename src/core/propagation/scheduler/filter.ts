// The filter phase: which clusters may hold the binding at all, and Karmada's FitError
// message when none may. Plugins run in this order and the first failure is the reason:
//   ClusterAffinity  "cluster(s) did not match the placement cluster affinity constraint"
//   TaintToleration  "cluster(s) had untolerated taint {key=value:Effect}" (NoSchedule and
//                    NoExecute only; skipped for clusters the binding already uses, whose
//                    eviction is the taint manager's business, as in Karmada)
//   SpreadConstraint "cluster(s) didn't have region property" (provider/zone alike)
// Karmada iterates its plugin registry map, so its order is unspecified; ours is fixed.
// Readiness is not a filter: an unready cluster is kept out only through its not-ready /
// unreachable taints, as in Karmada. Clusters being deleted are skipped silently but still
// count in "0/N". No API-enablement filter: the engine knows nothing of members' APIs here.
import type { Cluster, ClusterAffinity, Placement } from '../karmada-types.ts';
import { matchesClusterAffinity } from './cluster-affinity.ts';
import { findUntoleratedTaint, formatTaint } from './taint-toleration.ts';

export interface FilterOutcome {
  feasible: Cluster[];
  /** Cluster name → the reason it was filtered out. */
  reasons: Map<string, string>;
}

const AFFINITY_REASON = 'cluster(s) did not match the placement cluster affinity constraint';
const SPREAD_FIELDS = ['provider', 'region', 'zone'] as const;

function spreadReason(placement: Placement, cluster: Cluster): string | undefined {
  for (const field of SPREAD_FIELDS) {
    const wanted = (placement.spreadConstraints ?? []).some((c) => c.spreadByField === field);
    if (wanted && !cluster.spec[field]) return `cluster(s) didn't have ${field} property`;
  }
  return undefined;
}

export function filterReason(cluster: Cluster, placement: Placement, affinity: ClusterAffinity | undefined,
  previous: ReadonlySet<string>): string | undefined {
  if (!matchesClusterAffinity(affinity, cluster)) return AFFINITY_REASON;
  if (!previous.has(cluster.metadata.name ?? '')) {
    const taint = findUntoleratedTaint(placement.clusterTolerations, cluster.spec.taints);
    if (taint) return `cluster(s) had untolerated taint {${formatTaint(taint)}}`;
  }
  return spreadReason(placement, cluster);
}

export function filterClusters(clusters: readonly Cluster[], placement: Placement,
  affinity: ClusterAffinity | undefined, previous: ReadonlySet<string>): FilterOutcome {
  const feasible: Cluster[] = [];
  const reasons = new Map<string, string>();
  for (const cluster of clusters) {
    if (cluster.metadata.deletionTimestamp) continue;
    const reason = filterReason(cluster, placement, affinity, previous);
    if (reason) reasons.set(cluster.metadata.name ?? '', reason);
    else feasible.push(cluster);
  }
  return { feasible, reasons };
}

/** framework.FitError.Error(): "0/N clusters are available: <count reason, sorted>". */
export function fitErrorMessage(total: number, reasons: ReadonlyMap<string, string>): string {
  const counts = new Map<string, number>();
  for (const reason of reasons.values()) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const histogram = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${total} clusters are available: ${histogram.join(', ')}`;
}
