// Summing replica workloads' member statuses into the template's status
// (Karmada aggregatestatus.go). observedGeneration follows the template's
// generation only once every member reports, for the current template
// (resourceTemplateGeneration >= template generation), that its own controller
// has caught up (observedGeneration >= generation); until then the template
// keeps the observedGeneration it had. A member without status has not.
import type { AggregatedStatusItem } from '../karmada-types.ts';
import { int, rec } from './status-fields.ts';
import type { Json } from './status-fields.ts';

export interface SumRule { omitEmpty: readonly string[]; always: readonly string[] }

export const SUM_RULES: Record<string, SumRule> = {
  Deployment: { omitEmpty: ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'], always: [] },
  StatefulSet: { omitEmpty: ['availableReplicas', 'currentReplicas', 'readyReplicas', 'updatedReplicas'], always: ['replicas'] },
  ReplicaSet: { omitEmpty: ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], always: ['replicas'] },
  ReplicationController: { omitEmpty: ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], always: ['replicas'] },
  DaemonSet: { omitEmpty: ['numberAvailable', 'updatedNumberScheduled', 'numberUnavailable'], always: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'] },
};

export function aggregateReplicaStatus(rule: SumRule, template: Json, items: readonly AggregatedStatusItem[]): Json {
  const old = rec(template.status);
  const generation = int(rec(template.metadata).generation);
  const sums: Record<string, number> = {};
  let caughtUp = 0;
  for (const item of items) {
    if (!item.status) continue;
    const s = item.status;
    for (const k of [...rule.always, ...rule.omitEmpty]) sums[k] = (sums[k] ?? 0) + int(s[k]);
    // Karmada's test, >= both: a member ahead of this template copy (a newer one being applied) has still observed it.
    if (int(s.resourceTemplateGeneration) >= generation && int(s.observedGeneration) >= int(s.generation)) caughtUp++;
  }
  const out: Json = { ...old };
  for (const k of rule.always) out[k] = sums[k] ?? 0;
  for (const k of rule.omitEmpty) {
    if ((sums[k] ?? 0) !== 0) out[k] = sums[k];
    else delete out[k];
  }
  const observed = items.length > 0 && caughtUp === items.length ? generation : int(old.observedGeneration);
  if (observed !== 0) out.observedGeneration = observed;
  else delete out.observedGeneration;
  return out;
}
