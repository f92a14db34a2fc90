// Divided + Weighted by static weights (Karmada's assignByStaticWeightStrategy, 1.16):
//   - a cluster's weight is the largest weight among the staticWeightList rules whose
//     targetCluster it matches; clusters with weight 0 get nothing;
//   - when no selected cluster has a weight (or there is no weightPreference), every
//     selected cluster weighs 1;
//   - all replicas are divided by the Webster method from scratch on every run. Webster is
//     house-monotone, so scaling up never takes a replica away from a cluster, which is why
//     Karmada needs no Steady/Fresh distinction here.
import type { Cluster, StaticClusterWeight, TargetCluster } from '../karmada-types.ts';
import { matchesClusterAffinity } from './cluster-affinity.ts';
import { allocateWebsterSeats, type Party } from './webster.ts';

export function staticWeights(clusters: readonly Cluster[], rules: readonly StaticClusterWeight[] | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const cluster of clusters) {
    const weight = Math.max(0, ...(rules ?? []).filter((r) => matchesClusterAffinity(r.targetCluster, cluster)).map((r) => r.weight));
    if (weight > 0) weights.set(cluster.metadata.name ?? '', weight);
  }
  if (weights.size === 0) for (const cluster of clusters) weights.set(cluster.metadata.name ?? '', 1);
  return weights;
}

export function assignByStaticWeight(clusters: readonly Cluster[], rules: readonly StaticClusterWeight[] | undefined,
  replicas: number, previous: ReadonlyMap<string, number>): TargetCluster[] {
  const parties: Party[] = [...staticWeights(clusters, rules)].map(([name, votes]) => ({ name, votes, previous: previous.get(name) ?? 0 }));
  return [...allocateWebsterSeats(replicas, parties)].map(([name, n]) => ({ name, replicas: n }));
}
