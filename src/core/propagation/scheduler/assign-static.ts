// Divided + Weighted by static weights (Karmada's assignByStaticWeightStrategy, 1.16):
//   - a cluster's weight is the largest weight among the staticWeightList rules whose
//     targetCluster it matches; clusters with weight 0 get nothing;
//   - when no selected cluster has a weight (or there is no weightPreference), every
//     selected cluster weighs 1;
//   - all replicas are divided by the Webster method from scratch on every run. Webster is
//     house-monotone, so scaling up never takes a replica away from a cluster, which is why
//     Karmada needs no Steady/Fresh distinction here;
//   - clusterReplicaLimits (Warren's): Webster with bounds, see replica-limits.ts.
import type { Cluster, StaticClusterWeight, TargetCluster } from '../karmada-types.ts';
import { matchesClusterAffinity } from './cluster-affinity.ts';
import { allocateWebsterSeats, type Party } from './webster.ts';
import type { LimitsByCluster, ReplicaBounds } from './replica-limits.ts';

export function staticWeights(clusters: readonly Cluster[], rules: readonly StaticClusterWeight[] | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const cluster of clusters) {
    const weight = Math.max(0, ...(rules ?? []).filter((r) => matchesClusterAffinity(r.targetCluster, cluster)).map((r) => r.weight));
    if (weight > 0) weights.set(cluster.metadata.name ?? '', weight);
  }
  if (weights.size === 0) for (const cluster of clusters) weights.set(cluster.metadata.name ?? '', 1);
  return weights;
}

/** Webster over the weights; clusters with no weight but a minReplicas join with zero votes (they get just their min). */
export function assignByStaticWeight(clusters: readonly Cluster[], rules: readonly StaticClusterWeight[] | undefined,
  replicas: number, previous: ReadonlyMap<string, number>, limits: LimitsByCluster = new Map()): TargetCluster[] {
  const weights = staticWeights(clusters, rules);
  for (const [name, b] of limits) if (b.min > 0 && !weights.has(name)) weights.set(name, 0);
  const parties: Party[] = [...weights].map(([name, votes]) => withBounds({ name, votes, previous: previous.get(name) ?? 0 }, limits.get(name)));
  return [...allocateWebsterSeats(replicas, parties)].map(([name, n]) => ({ name, replicas: n }));
}

/** A party with the cluster's bounds, shifted down by what it already holds (`base`). */
export function withBounds(party: Party, bounds: ReplicaBounds | undefined, base = 0): Party {
  if (!bounds) return party;
  const min = Math.max(0, bounds.min - base);
  return { ...party, ...(min > 0 ? { min } : {}), ...(bounds.max !== undefined ? { max: Math.max(0, bounds.max - base) } : {}) };
}
