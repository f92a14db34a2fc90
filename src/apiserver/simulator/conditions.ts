// Condition lists as Kubernetes controllers keep them: a condition whose status
// does not change keeps its lastTransitionTime, and an unchanged condition is
// left as the same object, so status equality checks stop write loops.

import type { Condition } from '../../core/types.ts';

/** core's Condition with the times the built-in workload kinds add (Deployment, Pod, Node). */
export interface WorkloadCondition extends Condition {
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
}

/** Kubernetes timestamps have second precision (RFC 3339, no fraction). */
export function kubeTime(ms: number = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export function findCondition(conditions: WorkloadCondition[] | undefined, type: string): WorkloadCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Deployment-style: same status and reason → unchanged; same status, new reason → keep
 * lastTransitionTime, bump lastUpdateTime; new status → both times are now.
 */
export function setDeploymentCondition(conditions: WorkloadCondition[], next: Omit<WorkloadCondition, 'lastTransitionTime' | 'lastUpdateTime'>, now: string): WorkloadCondition[] {
  const current = findCondition(conditions, next.type);
  if (current && current.status === next.status && current.reason === next.reason && current.message === next.message) return conditions;
  const transition = current && current.status === next.status ? current.lastTransitionTime ?? now : now;
  const updated: WorkloadCondition = { type: next.type, status: next.status, lastUpdateTime: now, lastTransitionTime: transition };
  if (next.reason !== undefined) updated.reason = next.reason;
  if (next.message !== undefined) updated.message = next.message;
  return replaceCondition(conditions, updated);
}

/** Pod- and job-style: lastTransitionTime survives while the status holds. */
export function setPlainCondition(conditions: WorkloadCondition[], next: Omit<WorkloadCondition, 'lastTransitionTime'>, now: string): WorkloadCondition[] {
  const current = findCondition(conditions, next.type);
  if (current && current.status === next.status && current.reason === next.reason && current.message === next.message) return conditions;
  const transition = current && current.status === next.status ? current.lastTransitionTime ?? now : now;
  return replaceCondition(conditions, { ...next, lastTransitionTime: transition });
}

function replaceCondition(conditions: WorkloadCondition[], updated: WorkloadCondition): WorkloadCondition[] {
  const index = conditions.findIndex((c) => c.type === updated.type);
  if (index < 0) return [...conditions, updated];
  const copy = conditions.slice();
  copy[index] = updated;
  return copy;
}
