// Divided by available replicas: Weighted + dynamicWeight AvailableReplicas, and
// Aggregated (Karmada's assignByDynamicStrategy, with the 1.16 Webster dispenser).
// "scheduled" = the previous assignment restricted to the selected clusters.
//   Fresh:      divide all replicas; each cluster weighs its available replicas plus what
//               it already holds.
//   Steady, scheduled sum > replicas (scale down): divide the replicas in proportion to the
//               previous assignment. (Karmada uses the whole previous list here; we keep to
//               the selected clusters so a result never names a filtered-out cluster.)
//   Steady, scheduled sum < replicas (scale up, or first schedule): only the difference is
//               divided, in proportion to available replicas, and added to what each holds.
//   Steady, equal: the scheduled assignment unchanged.
// Weights are sorted by replicas descending (name for ties). Aggregated first moves the
// clusters that already hold replicas to the front, then keeps the shortest prefix whose
// available replicas cover the target, so the fewest clusters are used.
// Fails (Unschedulable) with Karmada's message when the weights sum below the target.
// clusterReplicaLimits (Warren's, replica-limits.ts): Steady works on the previous assignment
// clamped into the bounds (a cluster not held yet but with a min gets it from the dispense); seats are dispensed within max − held, mins of clusters outside
// the weights join with zero votes, and Aggregated's prefix counts a cluster's room as
// min(available, max − held).
import type { TargetCluster } from '../karmada-types.ts';
import { fail, type ClusterDetail, type Step } from './types.ts';
import { allocateWebsterSeats, type Party } from './webster.ts';
import { withBounds } from './assign-static.ts';
import { clampToLimits, type LimitsByCluster } from './replica-limits.ts';
import { estimateAvailable } from './available-replicas.ts';
import type { ScheduleInput } from './types.ts';

interface DynamicState {
  target: number;
  /** Weight per cluster, sorted by replicas desc then name. */
  available: TargetCluster[];
  /** What the dispensed replicas are added to. */
  base: TargetCluster[];
  limits: LimitsByCluster;
}

const sum = (list: readonly TargetCluster[]): number => list.reduce((s, c) => s + (c.replicas ?? 0), 0);
const byReplicasDesc = (a: TargetCluster, b: TargetCluster): number =>
  (b.replicas ?? 0) - (a.replicas ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function divide(state: DynamicState, aggregated: boolean): Step<TargetCluster[]> {
  const total = sum(state.available);
  if (total < state.target) {
    return fail('Unschedulable', `Clusters available replicas ${total} are not enough to schedule.`);
  }
  const previous = new Map(state.base.map((c) => [c.name, c.replicas ?? 0]));
  let weights = state.available;
  if (aggregated) {
    const prior = new Set(state.base.filter((c) => (c.replicas ?? 0) > 0).map((c) => c.name));
    weights = [...weights.filter((c) => prior.has(c.name)), ...weights.filter((c) => !prior.has(c.name))];
    const room = (c: TargetCluster): number => {
      const max = state.limits.get(c.name)?.max;
      return Math.min(c.replicas ?? 0, max === undefined ? Infinity : Math.max(0, max - (previous.get(c.name) ?? 0)));
    };
    let running = 0;
    const cut = weights.findIndex((c) => (running += room(c)) >= state.target);
    if (cut >= 0) weights = weights.slice(0, cut + 1);
  }
  const parties: Party[] = weights.map((c) => withBounds({ name: c.name, votes: c.replicas ?? 0, previous: previous.get(c.name) ?? 0 },
    state.limits.get(c.name), previous.get(c.name) ?? 0));
  for (const [name, b] of state.limits) {
    const held = previous.get(name) ?? 0;
    if (b.min > held && !parties.some((p) => p.name === name)) parties.push(withBounds({ name, votes: 0, previous: held }, b, held));
  }
  const seats = allocateWebsterSeats(state.target, parties);
  const merged = new Map(previous);
  for (const [name, n] of seats) merged.set(name, (merged.get(name) ?? 0) + n);
  return { ok: true, value: [...merged].map(([name, replicas]) => ({ name, replicas })) };
}

export function assignByAvailableReplicas(selected: readonly ClusterDetail[], input: ScheduleInput, aggregated: boolean,
  limits: LimitsByCluster = new Map()): Step<TargetCluster[]> {
  const names = new Set(selected.map((c) => c.name));
  const held = (input.previous ?? []).filter((c) => names.has(c.name));
  const scheduled = limits.size > 0 ? clampToLimits(held, limits) : held;
  const assigned = sum(scheduled);
  const estimate = (): TargetCluster[] => {
    const est = estimateAvailable(selected.map((c) => c.cluster), input.replicas, input.replicaRequirements);
    return selected.map((c) => ({ name: c.name, replicas: est.get(c.name) ?? 0 }));
  };
  const run = (label: string, state: Omit<DynamicState, 'limits'>): Step<TargetCluster[]> => {
    const result = divide({ ...state, limits }, aggregated);
    return result.ok ? result : { ...result, message: `${label}: ${result.message}` };
  };

  if (input.mode === 'Fresh') {
    const holding = new Map(held.map((c) => [c.name, c.replicas ?? 0]));
    const available = estimate().map((c) => ({ name: c.name, replicas: (c.replicas ?? 0) + (holding.get(c.name) ?? 0) }));
    return run('failed to do fresh scale', { target: input.replicas, available: available.sort(byReplicasDesc), base: [] });
  }
  if (assigned > input.replicas) {
    return run('failed to scale down', { target: input.replicas, available: [...scheduled].sort(byReplicasDesc), base: [] });
  }
  if (assigned < input.replicas) {
    // A min on a cluster not held yet is seeded by the dispense, as on a first schedule.
    const kept = scheduled.filter((c) => held.some((h) => h.name === c.name));
    return run('failed to scale up', { target: input.replicas - sum(kept), available: estimate().sort(byReplicasDesc), base: kept });
  }
  return { ok: true, value: scheduled };
}
