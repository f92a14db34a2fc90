// The assign phase (Karmada's AssignReplicas): how many replicas each selected cluster gets.
//   replicas 0 (non-workloads): every selected cluster, no replica counts.
//   Duplicated (also when replicaScheduling or its type is absent): each gets `replicas`.
//   Divided + Weighted, static weights (or no weightPreference): assign-static.ts.
//   Divided + Weighted + dynamicWeight, and Divided + Aggregated: assign-dynamic.ts.
// Divided with no division preference was defaulted to Weighted (Karmada's webhook does
// that, see withPlacementDefaults). Clusters that end with 0 replicas are dropped.
// clusterReplicaLimits (Warren's own) bound each cluster's replicas: replica-limits.ts.
// The result is sorted by cluster name so equal inputs give byte-equal bindings.
import type { Placement, TargetCluster } from '../karmada-types.ts';
import { assignByAvailableReplicas } from './assign-dynamic.ts';
import { assignByStaticWeight } from './assign-static.ts';
import { buildReplicaLimits, checkFeasible, checkTotal, duplicateWithinLimits, type LimitsByCluster } from './replica-limits.ts';
import { fail, type ClusterDetail, type ScheduleInput, type Step } from './types.ts';

const byName = (a: TargetCluster, b: TargetCluster): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Karmada's mutating-webhook default: Divided without a preference means Weighted. */
export function withPlacementDefaults(placement: Placement): Placement {
  const s = placement.replicaScheduling;
  if (s?.replicaSchedulingType !== 'Divided' || s.replicaDivisionPreference) return placement;
  return { ...placement, replicaScheduling: { ...s, replicaDivisionPreference: 'Weighted' } };
}

function divided(selected: ClusterDetail[], input: ScheduleInput, placement: Placement, limits: LimitsByCluster): Step<TargetCluster[]> {
  const s = placement.replicaScheduling;
  if (s?.replicaDivisionPreference === 'Aggregated') return assignByAvailableReplicas(selected, input, true, limits);
  if (s?.weightPreference?.dynamicWeight) return assignByAvailableReplicas(selected, input, false, limits);
  const previous = new Map((input.previous ?? []).map((c) => [c.name, c.replicas ?? 0]));
  return { ok: true, value: assignByStaticWeight(selected.map((c) => c.cluster), s?.weightPreference?.staticWeightList, input.replicas, previous, limits) };
}

export function assignReplicas(selected: ClusterDetail[], input: ScheduleInput, placement: Placement): Step<TargetCluster[]> {
  if (selected.length === 0) return fail('SchedulerError', 'failed to assign replicas: no clusters available to schedule');
  if (input.replicas <= 0) return { ok: true, value: selected.map((c) => ({ name: c.name })).sort(byName) };
  const built = buildReplicaLimits(selected.map((c) => c.cluster), placement.replicaScheduling?.clusterReplicaLimits);
  if (!built.ok) return { ...built, message: `failed to assign replicas: ${built.message}` };
  const limits = built.value;
  if ((placement.replicaScheduling?.replicaSchedulingType ?? 'Duplicated') === 'Duplicated') {
    if (limits.size === 0) return { ok: true, value: selected.map((c) => ({ name: c.name, replicas: input.replicas })).sort(byName) };
    const result = duplicateWithinLimits(selected.map((c) => c.name), limits, input.replicas);
    return result.ok ? { ok: true, value: result.value.sort(byName) } : { ...result, message: `failed to assign replicas: ${result.message}` };
  }
  const feasible = limits.size > 0 ? checkFeasible(limits, selected.map((c) => c.name), input.replicas) : { ok: true as const, value: undefined };
  const result = feasible.ok ? divided(selected, input, placement, limits) : feasible;
  const checked = result.ok && limits.size > 0 ? checkTotal(result.value, input.replicas) : result;
  if (!checked.ok) return { ...checked, message: `failed to assign replicas: ${checked.message}` };
  return { ok: true, value: checked.value.filter((c) => (c.replicas ?? 0) > 0).sort(byName) };
}
