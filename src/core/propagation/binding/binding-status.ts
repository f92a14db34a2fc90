// A binding's status from what happened on each member: whether its Work was
// applied (and why not), the member object's reflected status and health, and
// the FullyApplied condition over them all, in Karmada's words.
import type { KubeObject } from '../../types.ts';
import type { AggregatedStatusItem } from '../karmada-types.ts';
import { CONDITION_FULLY_APPLIED } from '../karmada-types.ts';
import { interpretHealth, reflectStatus } from '../status/index.ts';

export interface ClusterOutcome {
  cluster: string;
  applied: boolean;
  message?: string;
  /** The engine's object on that member, as last seen. */
  memberObject?: KubeObject | undefined;
}

export function aggregatedStatusOf(outcomes: readonly ClusterOutcome[]): AggregatedStatusItem[] {
  return [...outcomes].sort((a, b) => a.cluster.localeCompare(b.cluster)).map((o) => {
    const item: AggregatedStatusItem = { clusterName: o.cluster, applied: o.applied };
    if (!o.applied && o.message) item.appliedMessage = o.message;
    if (o.memberObject) {
      const status = reflectStatus(o.memberObject);
      if (status !== undefined) item.status = status;
      item.health = interpretHealth(o.memberObject);
    } else {
      item.health = 'Unknown';
    }
    return item;
  });
}

export function fullyAppliedCondition(items: readonly AggregatedStatusItem[]): { type: string; status: 'True' | 'False'; reason: string; message: string } {
  const failed = items.filter((i) => !i.applied);
  if (items.length > 0 && failed.length === 0) {
    return { type: CONDITION_FULLY_APPLIED, status: 'True', reason: 'FullyAppliedSuccess', message: 'All works have been successfully applied' };
  }
  const detail = failed.map((i) => `${i.clusterName}: ${i.appliedMessage ?? 'not applied yet'}`).join('; ');
  return { type: CONDITION_FULLY_APPLIED, status: 'False', reason: 'FullyAppliedFailed', message: items.length === 0 ? 'No cluster is scheduled' : `Failed to apply all works, see status.aggregatedStatus for details: ${detail}` };
}
