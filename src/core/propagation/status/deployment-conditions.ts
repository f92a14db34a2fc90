// A propagated Deployment's Available and Progressing conditions, from its
// members' (Warren goes beyond Karmada here: Karmada's aggregation leaves the
// template's conditions as they were, which is none, so `kubectl wait
// --for=condition=Available` and CD tools' health checks never see one).
// Semantics follow the deployment controller's, over every member:
//   Available   True (MinimumReplicasAvailable) when every member reports it True;
//               False (MinimumReplicasUnavailable) naming the members that do not.
//   Progressing False (ProgressDeadlineExceeded) when any member's rollout timed
//               out, naming them (kubectl rollout status then fails as on a cluster);
//               True (NewReplicaSetAvailable) when every member's rollout is complete;
//               True (ReplicaSetUpdated) while some member is still rolling out.
// A type no member reports is left as it was. Conditions of other types are kept.
// Times: lastTransitionTime moves only when the status does, lastUpdateTime when
// anything but the times does, so an unchanged aggregate writes nothing.
import type { AggregatedStatusItem } from '../karmada-types.ts';
import { rec } from './status-fields.ts';
import type { Json } from './status-fields.ts';

export const DEPLOYMENT_CONDITION_TYPES = ['Available', 'Progressing'] as const;

interface Verdict { status: 'True' | 'False'; reason: string; message: string }

const conditionsOf = (status: Json | undefined): Json[] => (Array.isArray(status?.conditions) ? (status.conditions as unknown[]).map(rec) : []);
const find = (status: Json | undefined, type: string): Json | undefined => conditionsOf(status).find((c) => c.type === type);

function available(items: readonly AggregatedStatusItem[]): Verdict | undefined {
  if (!items.some((i) => find(i.status, 'Available'))) return undefined;
  const missing = items.filter((i) => find(i.status, 'Available')?.status !== 'True').map((i) => i.clusterName);
  return missing.length === 0
    ? { status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
    : { status: 'False', reason: 'MinimumReplicasUnavailable', message: `Deployment does not have minimum availability in member clusters: ${missing.join(', ')}.` };
}

function progressing(items: readonly AggregatedStatusItem[]): Verdict | undefined {
  const reported = items.map((i) => ({ cluster: i.clusterName, c: find(i.status, 'Progressing') }));
  if (!reported.some((r) => r.c)) return undefined;
  const timedOut = reported.filter((r) => r.c?.status === 'False' && r.c.reason === 'ProgressDeadlineExceeded').map((r) => r.cluster);
  if (timedOut.length > 0) return { status: 'False', reason: 'ProgressDeadlineExceeded', message: `Deployment has timed out progressing in member clusters: ${timedOut.join(', ')}.` };
  const rolling = reported.filter((r) => !(r.c?.status === 'True' && r.c.reason === 'NewReplicaSetAvailable')).map((r) => r.cluster);
  if (rolling.length > 0) return { status: 'True', reason: 'ReplicaSetUpdated', message: `Deployment is progressing in member clusters: ${rolling.join(', ')}.` };
  // Every member names its own ReplicaSet; the same name everywhere (no override changed the pod template) is worth keeping.
  const messages = new Set(reported.map((r) => String(r.c?.message ?? '')));
  const [only] = messages;
  return { status: 'True', reason: 'NewReplicaSetAvailable', message: messages.size === 1 && only ? only : 'Deployment has successfully progressed in every member cluster.' };
}

/** The template's conditions after this aggregation; `now` is an RFC 3339 time. */
export function deploymentConditions(old: Json, items: readonly AggregatedStatusItem[], now: string): Json[] | undefined {
  const prior = conditionsOf(old);
  const verdicts: Record<string, Verdict | undefined> = { Available: available(items), Progressing: progressing(items) };
  let out = prior.map((c) => ({ ...c }));
  for (const type of DEPLOYMENT_CONDITION_TYPES) {
    const v = verdicts[type];
    if (!v) continue;
    const before = prior.find((c) => c.type === type);
    const same = before?.status === v.status;
    const untouched = same && before?.reason === v.reason && before.message === v.message;
    const next: Json = {
      type, status: v.status,
      lastUpdateTime: untouched && typeof before?.lastUpdateTime === 'string' ? before.lastUpdateTime : now,
      lastTransitionTime: same && typeof before?.lastTransitionTime === 'string' ? before.lastTransitionTime : now,
      reason: v.reason, message: v.message,
    };
    out = before ? out.map((c) => (c.type === type ? next : c)) : [...out, next];
  }
  return out.length > 0 ? out : undefined;
}
