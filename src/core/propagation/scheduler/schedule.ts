// Warren's Karmada-compatible scheduler, pure: one placement + the tenant's clusters →
// target clusters with replicas, or a failure with Karmada's reason and message.
//
// One pass (Karmada's genericScheduler.Schedule):
//   filter  (filter.ts)             affinity, taints, spread fields → "0/N clusters are available: ..."
//   score   (here)                  100 for clusters the binding already uses (ClusterLocality), else 0
//   order   (here)                  score desc, available replicas (estimate + held) desc, name
//   select  (spread-constraints.ts) spread constraints by cluster and region
//   assign  (assign-replicas.ts)    Duplicated / static Webster / dynamic / Aggregated
//
// placement.clusterAffinity, when set, is the only affinity. Otherwise the ordered
// placement.clusterAffinities are tried from the previously observed term (the first when
// none or unknown) onwards; the first term that schedules wins and is reported as
// affinityName; if none does, the first failure is returned (as Karmada does).
import type { ClusterAffinity, Placement } from '../karmada-types.ts';
import { assignReplicas, withPlacementDefaults } from './assign-replicas.ts';
import { estimateAvailable } from './available-replicas.ts';
import { filterClusters, fitErrorMessage } from './filter.ts';
import { selectClusters } from './spread-constraints.ts';
import { fail, type ClusterDetail, type ScheduleInput, type ScheduleResult, type Step } from './types.ts';
import type { TargetCluster } from '../karmada-types.ts';

export type { ScheduleInput, ScheduleResult, ScheduleFailureReason } from './types.ts';

const CLUSTER_LOCALITY_SCORE = 100;

function rank(a: ClusterDetail, b: ClusterDetail): number {
  return b.score - a.score || b.available - a.available || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function scheduleOnce(input: ScheduleInput, placement: Placement, affinity: ClusterAffinity | undefined): Step<TargetCluster[]> {
  const held = new Map((input.previous ?? []).map((c) => [c.name, c.replicas ?? 0]));
  const { feasible, reasons } = filterClusters(input.clusters, placement, affinity, new Set(held.keys()));
  if (feasible.length === 0) {
    const excluded = input.excluded ?? new Map<string, string>();
    return fail('NoClusterFit', fitErrorMessage(input.clusters.length + excluded.size, new Map([...reasons, ...excluded])));
  }

  const estimate = estimateAvailable(feasible, input.replicas, input.replicaRequirements);
  const details: ClusterDetail[] = feasible.map((cluster) => {
    const name = cluster.metadata.name ?? '';
    return {
      name, cluster,
      score: held.has(name) ? CLUSTER_LOCALITY_SCORE : 0,
      available: (estimate.get(name) ?? 0) + (held.get(name) ?? 0),
    };
  }).sort(rank);

  const selected = selectClusters(details, placement, input.replicas);
  if (!selected.ok) return { ...selected, message: `failed to select clusters: ${selected.message}` };
  const chosen = new Set(selected.value);
  return assignReplicas(details.filter((d) => chosen.has(d.cluster)), input, placement);
}

export function schedule(input: ScheduleInput): ScheduleResult {
  const placement = withPlacementDefaults(input.placement);
  const terms = placement.clusterAffinities ?? [];
  if (placement.clusterAffinity || terms.length === 0) {
    const result = scheduleOnce(input, placement, placement.clusterAffinity);
    return result.ok ? { ok: true, clusters: result.value } : result;
  }
  const start = Math.max(0, terms.findIndex((t) => t.affinityName === input.previousAffinityName));
  let firstFailure: ScheduleResult | undefined;
  for (const term of terms.slice(start)) {
    const result = scheduleOnce(input, placement, term);
    if (result.ok) return { ok: true, clusters: result.value, affinityName: term.affinityName };
    firstFailure ??= result;
  }
  return firstFailure ?? fail('SchedulerError', 'no cluster affinity term to schedule with');
}
