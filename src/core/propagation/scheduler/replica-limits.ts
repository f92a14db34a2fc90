// Per-cluster minimum and maximum replicas (placement.replicaScheduling.clusterReplicaLimits,
// Warren's own; Karmada has no such field). Semantics:
//   - A cluster's bounds are the tightest of every entry whose targetCluster it matches
//     (largest minReplicas, smallest maxReplicas). Only clusters the placement selected
//     count: a min on a filtered-out cluster is ignored.
//   - Divided (static, dynamic, Aggregated): mins are handed out first, the rest is divided
//     by the strategy's own rule with no cluster above its max (the excess goes to the
//     others by that rule). Mins summing above the replicas, or maxes too small to hold
//     them, fail with Unschedulable.
//   - Steady reschedules first clamp the previous assignment into the bounds, then apply
//     their usual rule (keep / scale up / scale down) to the clamped one, so only replicas
//     that break a bound move. Fresh divides from scratch within the bounds.
//   - Duplicated: each cluster gets min(replicas, max), and a cluster whose max is 0 is left
//     out; a min above the replicas fails (Unschedulable). That cannot be a policy
//     validation error: the policy does not know the workload's replicas.
//   - Non-workloads (replicas 0) ignore the limits.
import type { Cluster, ClusterReplicaLimit, TargetCluster } from '../karmada-types.ts';
import { matchesClusterAffinity } from './cluster-affinity.ts';
import { fail, type Step } from './types.ts';

export interface ReplicaBounds {
  min: number;
  /** undefined: no upper bound. */
  max?: number;
}

export type LimitsByCluster = ReadonlyMap<string, ReplicaBounds>;

/** Bounds per selected cluster that some entry matches; fails when one cluster's entries contradict. */
export function buildReplicaLimits(clusters: readonly Cluster[], limits: readonly ClusterReplicaLimit[] | undefined): Step<Map<string, ReplicaBounds>> {
  const out = new Map<string, ReplicaBounds>();
  if (!limits || limits.length === 0) return { ok: true, value: out };
  for (const cluster of clusters) {
    const name = cluster.metadata.name ?? '';
    const matching = limits.filter((l) => matchesClusterAffinity(l.targetCluster, cluster));
    if (matching.length === 0) continue;
    const min = Math.max(0, ...matching.map((l) => l.minReplicas ?? 0));
    const maxes = matching.flatMap((l) => (l.maxReplicas === undefined ? [] : [l.maxReplicas]));
    const max = maxes.length > 0 ? Math.min(...maxes) : undefined;
    if (max !== undefined && min > max) {
      return fail('Unschedulable', `cluster ${name} matches clusterReplicaLimits whose minReplicas ${min} exceeds maxReplicas ${max}`);
    }
    out.set(name, max === undefined ? { min } : { min, max });
  }
  return { ok: true, value: out };
}

const total = (list: readonly TargetCluster[]): number => list.reduce((s, c) => s + (c.replicas ?? 0), 0);

/** The mins must fit in the replicas; the maxes (of clusters that may take replicas) must hold them. */
export function checkFeasible(limits: LimitsByCluster, names: readonly string[], replicas: number): Step<void> {
  const mins = names.reduce((s, n) => s + (limits.get(n)?.min ?? 0), 0);
  if (mins > replicas) {
    return fail('Unschedulable', `the minReplicas of the selected clusters sum to ${mins}, more than the ${replicas} replicas to schedule`);
  }
  let room = 0;
  for (const n of names) {
    const max = limits.get(n)?.max;
    if (max === undefined) return { ok: true, value: undefined };
    room += max;
  }
  if (room < replicas) {
    return fail('Unschedulable', `the maxReplicas of the selected clusters allow at most ${room} of the ${replicas} replicas to schedule`);
  }
  return { ok: true, value: undefined };
}

/** The previous assignment moved into the bounds: above max cut to max, below min (or absent) raised to min. */
export function clampToLimits(previous: readonly TargetCluster[], limits: LimitsByCluster): TargetCluster[] {
  const out = new Map(previous.map((c) => [c.name, c.replicas ?? 0]));
  for (const [name, b] of limits) {
    const held = out.get(name);
    const clamped = Math.max(b.min, b.max === undefined ? held ?? 0 : Math.min(b.max, held ?? 0));
    if (held !== undefined || clamped > 0) out.set(name, clamped);
  }
  return [...out].map(([name, replicas]) => ({ name, replicas }));
}

/** The bounded division hands out fewer seats when every open cluster is at its max: say so. */
export function checkTotal(assigned: readonly TargetCluster[], replicas: number): Step<TargetCluster[]> {
  const sum = total(assigned);
  if (sum !== replicas) {
    return fail('Unschedulable', `the clusterReplicaLimits leave room for ${sum} of the ${replicas} replicas to schedule`);
  }
  return { ok: true, value: [...assigned] };
}

/** Duplicated: each cluster gets the replicas, capped by its max; clusters capped at 0 are left out. */
export function duplicateWithinLimits(names: readonly string[], limits: LimitsByCluster, replicas: number): Step<TargetCluster[]> {
  const out: TargetCluster[] = [];
  for (const name of names) {
    const b = limits.get(name);
    if (b && b.min > replicas) {
      return fail('Unschedulable', `cluster ${name} requires minReplicas ${b.min}, more than the ${replicas} replicas to duplicate`);
    }
    const n = b?.max === undefined ? replicas : Math.min(replicas, b.max);
    if (n > 0) out.push({ name, replicas: n });
  }
  if (out.length === 0) return fail('Unschedulable', 'the maxReplicas of every selected cluster is 0');
  return { ok: true, value: out };
}
