// Job and CronJob status from members (Karmada aggregatestatus.go, helper.ParsingJobStatus).
// A finished template Job is never touched again. Complete is set only when the
// Job completed in every member; Failed when it failed in any, naming them;
// SuccessCriteriaMet beside Complete when every member met it (kube 1.31+ Jobs
// carry it, and a 1.33 apiserver refuses a Complete Job status without it).
// startTime is set once, the earliest, when every member has started; kept after.
// Condition times come from `now`, but an existing condition keeps its times so
// an unchanged aggregate writes nothing.
import type { AggregatedStatusItem } from '../karmada-types.ts';
import { conditionTrue, int, rec } from './status-fields.ts';
import type { Json } from './status-fields.ts';

export function aggregateJobStatus(template: Json, items: readonly AggregatedStatusItem[], now: string): Json {
  const old = rec(template.status);
  if (conditionTrue(old, 'Complete') || conditionTrue(old, 'Failed')) return old;
  const failedIn: string[] = [];
  let succeeded = 0;
  let criteriaMet = 0;
  let started = 0;
  let completions = 0;
  let startTime: string | undefined;
  let completionTime: string | undefined;
  const out: Json = {};
  let active = 0;
  let succeededPods = 0;
  let failedPods = 0;
  for (const item of items) {
    if (!item.status) continue;
    const s = item.status;
    if (conditionTrue(s, 'Complete')) succeeded++;
    else if (conditionTrue(s, 'Failed')) failedIn.push(item.clusterName);
    if (conditionTrue(s, 'SuccessCriteriaMet')) criteriaMet++;
    if (typeof s.startTime === 'string') {
      started++;
      if (startTime === undefined || s.startTime < startTime) startTime = s.startTime;
    }
    if (typeof s.completionTime === 'string') {
      completions++;
      if (completionTime === undefined || completionTime < s.completionTime) completionTime = s.completionTime;
    }
    active += int(s.active);
    succeededPods += int(s.succeeded);
    failedPods += int(s.failed);
  }
  const conditions: Json[] = [];
  const keep = (type: string, reason: string, message: string): Json => {
    const prior = (Array.isArray(old.conditions) ? old.conditions as Json[] : []).find((c) => rec(c).type === type && rec(c).status === 'True');
    return { type, status: 'True', lastProbeTime: prior?.lastProbeTime ?? now, lastTransitionTime: prior?.lastTransitionTime ?? now, reason, message };
  };
  if (failedIn.length > 0) conditions.push(keep('Failed', 'JobFailed', `Job executed failed in member clusters ${failedIn.join(',')}`));
  if (items.length > 0 && succeeded === items.length) {
    conditions.push(keep('Complete', 'Completed', 'Job completed'));
    if (criteriaMet === items.length) conditions.push(keep('SuccessCriteriaMet', 'CompletionsReached', 'All member clusters have met success criteria'));
  }
  if (conditions.length > 0) out.conditions = conditions;
  if (typeof old.startTime === 'string') out.startTime = old.startTime;
  else if (startTime && items.length > 0 && started === items.length) out.startTime = startTime;
  if (completionTime && completions === items.length) out.completionTime = completionTime;
  if (active) out.active = active;
  if (succeededPods) out.succeeded = succeededPods;
  if (failedPods) out.failed = failedPods;
  return out;
}

export function aggregateCronJobStatus(template: Json, items: readonly AggregatedStatusItem[]): Json {
  const out: Json = { ...rec(template.status) };
  const active: unknown[] = [];
  let lastSchedule: string | undefined;
  let lastSuccessful: string | undefined;
  for (const item of items) {
    if (!item.status) continue;
    const s = item.status;
    if (Array.isArray(s.active)) active.push(...s.active);
    if (typeof s.lastScheduleTime === 'string' && (!lastSchedule || lastSchedule < s.lastScheduleTime)) lastSchedule = s.lastScheduleTime;
    if (typeof s.lastSuccessfulTime === 'string' && (!lastSuccessful || lastSuccessful < s.lastSuccessfulTime)) lastSuccessful = s.lastSuccessfulTime;
  }
  for (const [k, v] of [['active', active.length > 0 ? active : undefined], ['lastScheduleTime', lastSchedule], ['lastSuccessfulTime', lastSuccessful]] as const) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
