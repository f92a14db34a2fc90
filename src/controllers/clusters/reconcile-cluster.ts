// The cluster reconciler: one member, phase after phase.
//   1. credentials: the member's Upstream from its Secret (failure → Ready False);
//   2. probe: /readyz, at most once per probe interval, whatever wakes us;
//   3. thresholds: Karmada's success/failure thresholds on the Ready flip;
//   4. collect: version and resource summary, only from a Ready member;
//   5. write status (only when it changed), then the health taints from it.
// A probe is not repeated when our own status write comes back through the
// watch: a member whose pods keep changing would otherwise be probed in a loop.
import type { Cluster, ClusterStatus } from '../../core/propagation/karmada-types.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { findCondition, setCondition, type ConditionInput } from '../runtime/conditions.ts';
import type { ReconcileResult } from '../runtime/controller.ts';
import type { EventType } from '../runtime/event-recorder.ts';
import { buildClusterTaints } from './cluster-taints.ts';
import type { HostClient } from './host-client.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { MemberClientResult } from './member-clients.ts';
import { buildObservedReadyCondition, thresholdAdjustedReadyCondition, type ProbeOutcome, type ThresholdState } from './ready-condition.ts';
import { CONDITION_READY, Reason } from './reasons.ts';

export interface MemberProbes {
  health(member: Upstream): Promise<ProbeOutcome>;
  version(member: Upstream): Promise<string | undefined>;
  summary(member: Upstream): Promise<Pick<ClusterStatus, 'nodeSummary' | 'resourceSummary'> | undefined>;
}

/** What the controller remembers of one cluster between reconciles (in memory only). */
export interface ClusterMemory {
  threshold?: ThresholdState;
  lastProbeMs?: number;
  /** Credentials the last probe used: new ones are probed at once. */
  fingerprint?: string;
  /**
   * The Cluster's resourceVersion once this process first wrote (or found current) its health:
   * from that version on, its Ready condition and taints are this process's observation, not a
   * previous process's (the propagation engine waits for it before failover, cluster-health.ts).
   */
  confirmedAt?: string;
}

export interface ClusterReconcileDeps {
  host: HostClient;
  members: { clientFor(cluster: Cluster): Promise<MemberClientResult>; forget(name: string): void };
  probes: MemberProbes;
  memory: Map<string, ClusterMemory>;
  now: () => Date;
  probeIntervalMs: number;
  successThresholdMs: number;
  failureThresholdMs: number;
  noExecuteAfterMs?: number | undefined;
  record: (cluster: Cluster, type: EventType, reason: string, message: string) => Promise<void>;
}

export async function reconcileCluster(deps: ClusterReconcileDeps, name: string): Promise<ReconcileResult> {
  const cluster = await deps.host.getCluster(name);
  if (!cluster || cluster.metadata.deletionTimestamp) {
    deps.memory.delete(name);
    deps.members.forget(name);
    return {};
  }
  const now = deps.now();
  const memory = deps.memory.get(name) ?? {};
  deps.memory.set(name, memory);
  const status: ClusterStatus = structuredClone(cluster.status ?? {});

  const member = await deps.members.clientFor(cluster);
  if ('error' in member) {
    memory.fingerprint = undefined;
    setReady(status, { type: CONDITION_READY, status: 'False', reason: Reason.StatusCollectionFailed, message: `failed to create a ClusterClient: ${member.error}` }, now);
    const stored = await write(deps, cluster, status, now);
    memory.confirmedAt ??= stored.metadata.resourceVersion;
    return { requeueAfterMs: deps.probeIntervalMs };
  }

  const due = memory.lastProbeMs === undefined || memory.fingerprint !== member.fingerprint || now.getTime() - memory.lastProbeMs >= deps.probeIntervalMs;
  if (due) {
    memory.lastProbeMs = now.getTime();
    memory.fingerprint = member.fingerprint;
    const outcome = await deps.probes.health(member.upstream);
    const adjusted = thresholdAdjustedReadyCondition({
      saved: memory.threshold, current: findCondition(status.conditions, CONDITION_READY), observed: buildObservedReadyCondition(outcome),
      nowMs: now.getTime(), successThresholdMs: deps.successThresholdMs, failureThresholdMs: deps.failureThresholdMs,
    });
    memory.threshold = adjusted.saved;
    // Like Karmada: version and summaries come only from a member that is up and counted Ready.
    if (outcome.online && outcome.healthy && adjusted.condition.status === 'True') {
      const [version, summary] = await Promise.all([deps.probes.version(member.upstream), deps.probes.summary(member.upstream)]);
      if (version) status.kubernetesVersion = version;
      if (summary) Object.assign(status, summary);
    }
    setReady(status, adjusted.condition, now);
  }
  const stored = await write(deps, cluster, status, now);
  if (due) memory.confirmedAt ??= stored.metadata.resourceVersion;
  const waited = now.getTime() - (memory.lastProbeMs ?? now.getTime());
  return { requeueAfterMs: Math.max(1, deps.probeIntervalMs - waited) };
}

function setReady(status: ClusterStatus, condition: ConditionInput, now: Date): void {
  status.conditions = setCondition(status.conditions, condition, { now });
}

/** Status first (the taints follow from it), each only when it changed; returns the Cluster as stored after them. */
async function write(deps: ClusterReconcileDeps, cluster: Cluster, status: ClusterStatus, now: Date): Promise<Cluster> {
  let stored = cluster;
  const before = findCondition(cluster.status?.conditions, CONDITION_READY);
  if (!jsonEqual(cluster.status ?? {}, status)) {
    stored = await deps.host.updateClusterStatus({ ...cluster, status });
    const after = findCondition(status.conditions, CONDITION_READY);
    if (after && after.status !== before?.status) {
      await deps.record(stored, after.status === 'True' ? 'Normal' : 'Warning', after.reason ?? Reason.ClusterNotReady, after.message ?? '');
    }
  }
  const ready = findCondition(status.conditions, CONDITION_READY);
  const taints = buildClusterTaints({ taints: stored.spec.taints, ready, now, noExecuteAfterMs: deps.noExecuteAfterMs });
  if (!jsonEqual(stored.spec.taints ?? [], taints)) {
    stored = await deps.host.updateCluster({ ...stored, spec: { ...stored.spec, taints } });
  }
  return stored;
}
