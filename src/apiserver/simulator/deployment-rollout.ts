// The arithmetic of a Deployment rollout, pure: maxSurge / maxUnavailable from
// int-or-percent, and one step of a RollingUpdate or Recreate, as the deployment
// controller takes it (scale the new ReplicaSet up, or the old ones down, then
// wait for availability to change before the next step).

export type IntOrString = number | string | undefined;

export interface Strategy {
  type?: 'RollingUpdate' | 'Recreate';
  rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString };
}

export interface ReplicaSetState {
  name: string;
  /** spec.replicas */
  replicas: number;
  /** status.replicas: pods that still exist */
  current: number;
  available: number;
  revision: number;
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function resolveIntOrPercent(value: IntOrString, fallback: string, total: number, roundUp: boolean): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const match = /^(\d+)%$/.exec(v);
  if (!match) return Number.parseInt(v, 10) || 0;
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** Resolved maxSurge and maxUnavailable; both zero would stall, so maxUnavailable becomes 1. */
export function surgeAndUnavailable(strategy: Strategy | undefined, desired: number): { maxSurge: number; maxUnavailable: number } {
  if (strategy?.type === 'Recreate') return { maxSurge: 0, maxUnavailable: 0 };
  const maxSurge = resolveIntOrPercent(strategy?.rollingUpdate?.maxSurge, '25%', desired, true);
  let maxUnavailable = resolveIntOrPercent(strategy?.rollingUpdate?.maxUnavailable, '25%', desired, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable: Math.min(maxUnavailable, desired) };
}

/** Target spec.replicas per ReplicaSet name after one step; only entries that change are returned. */
export function planRolloutStep(desired: number, strategy: Strategy | undefined, next: ReplicaSetState, olds: ReplicaSetState[]): Map<string, number> {
  const plan = new Map<string, number>();
  const set = (rs: ReplicaSetState, replicas: number): void => {
    if (replicas !== rs.replicas) plan.set(rs.name, replicas);
  };
  const activeOlds = olds.filter((rs) => rs.replicas > 0);
  if (strategy?.type === 'Recreate') {
    if (activeOlds.length > 0) for (const rs of activeOlds) set(rs, 0);
    else if (olds.every((rs) => rs.current === 0)) set(next, desired);
    return plan;
  }
  if (activeOlds.length === 0) {
    set(next, desired);
    return plan;
  }
  const { maxSurge, maxUnavailable } = surgeAndUnavailable(strategy, desired);
  const total = next.replicas + activeOlds.reduce((sum, rs) => sum + rs.replicas, 0);
  if (next.replicas > desired) {
    set(next, desired);
    return plan;
  }
  const room = desired + maxSurge - total;
  if (room > 0 && next.replicas < desired) {
    set(next, Math.min(desired, next.replicas + room));
    return plan;
  }
  const minAvailable = desired - maxUnavailable;
  const newUnavailable = Math.max(0, next.replicas - next.available);
  // Never below minimum availability; but always shed what exceeds desired + maxSurge (a scale-down mid-rollout).
  let budget = Math.max(total - minAvailable - newUnavailable, total - (desired + maxSurge), 0);
  for (const rs of [...activeOlds].sort((a, b) => a.revision - b.revision)) {
    if (budget <= 0) break;
    const cut = Math.min(rs.replicas, budget);
    set(rs, rs.replicas - cut);
    budget -= cut;
  }
  return plan;
}
