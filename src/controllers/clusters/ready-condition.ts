// The Ready condition from one probe, and Karmada's thresholds on top of it
// (cluster_condition_cache.go): a flip between True and False is only written
// once the new observation has held for the success (False → True) or failure
// (True → False) threshold, so a blip on the network does not taint a member
// and move its workloads. The state carried between probes is explicit, so the
// rule is table-tested with a fake clock.
import type { Condition, ConditionInput } from '../runtime/conditions.ts';
import { CONDITION_READY, Message, Reason } from './reasons.ts';

export interface ProbeOutcome {
  /** Something answered /readyz (any HTTP status). */
  online: boolean;
  /** /readyz (or /healthz where /readyz is not served) answered 200. */
  healthy: boolean;
}

export function buildObservedReadyCondition(outcome: ProbeOutcome): ConditionInput {
  if (!outcome.online) return { type: CONDITION_READY, status: 'False', reason: Reason.ClusterNotReachable, message: Message.ClusterNotReachable };
  if (!outcome.healthy) return { type: CONDITION_READY, status: 'False', reason: Reason.ClusterNotReady, message: Message.ClusterNotReady };
  return { type: CONDITION_READY, status: 'True', reason: Reason.ClusterReady, message: Message.ClusterReady };
}

/** What the controller remembers of a cluster between probes (Karmada's clusterData). */
export interface ThresholdState {
  observed: Condition['status'];
  /** When `observed` was first seen, ms since the epoch. */
  since: number;
}

export interface ThresholdInput {
  saved: ThresholdState | undefined;
  /** The Ready condition now in the Cluster's status. */
  current: Condition | undefined;
  observed: ConditionInput;
  nowMs: number;
  successThresholdMs: number;
  failureThresholdMs: number;
}

export interface ThresholdResult {
  /** The Ready condition to write: the observed one, or the current one retained. */
  condition: ConditionInput;
  saved: ThresholdState;
}

export function thresholdAdjustedReadyCondition(input: ThresholdInput): ThresholdResult {
  const { observed, current, nowMs } = input;
  // A cluster seen for the first time (or by a restarted controller) takes the observation as is.
  if (!input.saved) return { condition: observed, saved: { observed: observed.status, since: nowMs } };
  let saved = input.saved;
  if (saved.observed !== observed.status) saved = { observed: observed.status, since: nowMs };
  if (!current) return { condition: observed, saved };
  const threshold = observed.status === 'True' ? input.successThresholdMs : input.failureThresholdMs;
  const flips = (observed.status === 'True' && current.status === 'False') || (observed.status === 'False' && current.status === 'True');
  if (flips && nowMs < saved.since + threshold) {
    return { condition: { type: current.type, status: current.status, reason: current.reason ?? '', message: current.message ?? '' }, saved };
  }
  return { condition: observed, saved };
}
