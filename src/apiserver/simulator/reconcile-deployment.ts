// Deployment controller: finds or creates the ReplicaSet for the current
// template (`<deploy>-<pod-template-hash>`), takes one rollout step, trims
// history to revisionHistoryLimit, and reports status. Re-run on every change of
// the Deployment or of a ReplicaSet it owns, so each step waits for the last.
import type { KubeObject } from '../../core/types.ts';
import { CONTROLLER_MANAGER, type PodTemplate } from './build-pod.ts';
import { kubeTime, type WorkloadCondition } from './conditions.ts';
import { buildDeploymentStatus } from './deployment-status.ts';
import { planRolloutStep, surgeAndUnavailable, type ReplicaSetState, type Strategy } from './deployment-rollout.ts';
import { canonicalJson, computeHash } from './kube-hash.ts';
import { DEFS, isTerminating, ownerRef, type SimContext } from './sim-context.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const HASH_LABEL = 'pod-template-hash';

interface DeploymentSpec {
  replicas?: number;
  paused?: boolean;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  strategy?: Strategy;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: PodTemplate;
}

interface RsStatus { replicas?: number; readyReplicas?: number; availableReplicas?: number }

function revisionOf(obj: KubeObject): number {
  return Number(obj.metadata.annotations?.[REVISION_ANNOTATION] ?? 0) || 0;
}

/** A ReplicaSet's template without the pod-template-hash label, for EqualIgnoreHash. */
function templateIgnoringHash(template: PodTemplate | undefined): string {
  const labels = { ...(template?.metadata?.labels ?? {}) };
  delete labels[HASH_LABEL];
  return canonicalJson({ ...template, metadata: { ...template?.metadata, labels } });
}

function stateOf(rs: KubeObject): ReplicaSetState {
  const status = (rs.status ?? {}) as RsStatus;
  return {
    name: rs.metadata.name ?? '',
    replicas: (rs.spec as { replicas?: number } | undefined)?.replicas ?? 1,
    current: status.replicas ?? 0,
    available: status.availableReplicas ?? 0,
    revision: revisionOf(rs),
  };
}

function buildReplicaSet(d: KubeObject, spec: DeploymentSpec, hash: string, revision: number, replicas: number, maxSurge: number): KubeObject {
  const desired = spec.replicas ?? 1;
  const templateLabels = { ...(spec.template?.metadata?.labels ?? {}), [HASH_LABEL]: hash };
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (!k.startsWith('deployment.kubernetes.io/') && k !== 'kubectl.kubernetes.io/last-applied-configuration') annotations[k] = v;
  }
  annotations['deployment.kubernetes.io/desired-replicas'] = String(desired);
  annotations['deployment.kubernetes.io/max-replicas'] = String(desired + maxSurge);
  annotations[REVISION_ANNOTATION] = String(revision);
  const selector = { ...(spec.selector ?? {}), matchLabels: { ...(spec.selector?.matchLabels ?? {}), [HASH_LABEL]: hash } };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      labels: templateLabels,
      annotations,
      ownerReferences: [ownerRef(d, 'apps/v1', 'Deployment')],
    },
    spec: {
      replicas,
      minReadySeconds: spec.minReadySeconds ?? 0,
      selector,
      template: { ...spec.template, metadata: { ...spec.template?.metadata, labels: templateLabels } },
    },
  };
}

function scaleReplicaSet(ctx: SimContext, rs: KubeObject, replicas: number, desired: number, maxSurge: number): void {
  const annotations = { ...(rs.metadata.annotations ?? {}), 'deployment.kubernetes.io/desired-replicas': String(desired), 'deployment.kubernetes.io/max-replicas': String(desired + maxSurge) };
  ctx.writer.update(DEFS.replicasets, { ...rs, metadata: { ...rs.metadata, annotations }, spec: { ...(rs.spec as object), replicas } }, CONTROLLER_MANAGER);
}

export function reconcileDeployment(ctx: SimContext, namespace: string, name: string): void {
  let d = ctx.caches.deployments.get(namespace, name);
  if (!d || isTerminating(d)) return;
  const spec = (d.spec ?? {}) as DeploymentSpec;
  const status = (d.status ?? {}) as { collisionCount?: number; conditions?: WorkloadCondition[] };
  const desired = spec.replicas ?? 1;
  const { maxSurge, maxUnavailable } = surgeAndUnavailable(spec.strategy, desired);
  const owned = ctx.caches.replicasets.byIndex('owner', d.metadata.uid ?? '').filter((rs) => !isTerminating(rs));

  const hash = computeHash(spec.template ?? {}, status.collisionCount);
  const newName = `${name}-${hash}`;
  const wanted = templateIgnoringHash(spec.template);
  let newRS = owned.find((rs) => rs.metadata.name === newName && templateIgnoringHash((rs.spec as { template?: PodTemplate }).template) === wanted)
    ?? owned.find((rs) => templateIgnoringHash((rs.spec as { template?: PodTemplate }).template) === wanted);
  const olds = owned.filter((rs) => rs !== newRS);
  const maxOldRevision = olds.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
  let created = false;

  if (!newRS && !spec.paused) {
    if (ctx.caches.replicasets.get(namespace, newName)) {
      // Someone else's ReplicaSet holds our name: a hash collision. Bump the count; the next pass hashes anew.
      ctx.writer.updateStatus(DEFS.deployments, { ...d, status: { ...status, collisionCount: (status.collisionCount ?? 0) + 1 } }, CONTROLLER_MANAGER);
      return;
    }
    const fresh: ReplicaSetState = { name: newName, replicas: 0, current: 0, available: 0, revision: maxOldRevision + 1 };
    const replicas = planRolloutStep(desired, spec.strategy, fresh, olds.map(stateOf)).get(newName) ?? 0;
    newRS = ctx.writer.create(DEFS.replicasets, buildReplicaSet(d, spec, hash, maxOldRevision + 1, replicas, maxSurge), CONTROLLER_MANAGER);
    created = true;
  } else if (newRS && revisionOf(newRS) <= maxOldRevision) {
    // A rollback to an older template: that ReplicaSet becomes the newest revision again.
    const annotations = { ...(newRS.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(maxOldRevision + 1) };
    newRS = ctx.writer.update(DEFS.replicasets, { ...newRS, metadata: { ...newRS.metadata, annotations } }, CONTROLLER_MANAGER);
  }

  if (newRS && !created && !spec.paused) {
    const plan = planRolloutStep(desired, spec.strategy, stateOf(newRS), olds.map(stateOf));
    for (const rs of [newRS, ...olds]) {
      const replicas = plan.get(rs.metadata.name ?? '');
      if (replicas !== undefined) scaleReplicaSet(ctx, rs, replicas, desired, maxSurge);
    }
  }
  cleanupHistory(ctx, olds, spec.revisionHistoryLimit ?? 10);

  if (newRS && d.metadata.annotations?.[REVISION_ANNOTATION] !== String(revisionOf(newRS))) {
    const annotations = { ...(d.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(revisionOf(newRS)) };
    d = ctx.writer.update(DEFS.deployments, { ...d, metadata: { ...d.metadata, annotations } }, CONTROLLER_MANAGER);
  }
  writeStatus(ctx, d, spec, desired, maxUnavailable, newRS, created);
}

/** Deletes the oldest fully scaled-down ReplicaSets beyond revisionHistoryLimit. */
function cleanupHistory(ctx: SimContext, olds: KubeObject[], limit: number): void {
  const idle = olds.filter((rs) => stateOf(rs).replicas === 0 && stateOf(rs).current === 0).sort((a, b) => revisionOf(a) - revisionOf(b));
  for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) ctx.writer.delete(DEFS.replicasets, rs);
}

function writeStatus(ctx: SimContext, d: KubeObject, spec: DeploymentSpec, desired: number, maxUnavailable: number, newRS: KubeObject | undefined, created: boolean): void {
  const all = ctx.caches.replicasets.byIndex('owner', d.metadata.uid ?? '').filter((rs) => !isTerminating(rs));
  const sum = (pick: (s: RsStatus) => number | undefined): number => all.reduce((total, rs) => total + (pick((rs.status ?? {}) as RsStatus) ?? 0), 0);
  const previous = (d.status ?? {}) as { conditions?: WorkloadCondition[]; collisionCount?: number };
  const next = buildDeploymentStatus({
    generation: d.metadata.generation,
    desired,
    maxUnavailable,
    paused: spec.paused ?? false,
    newReplicaSetName: newRS?.metadata.name,
    createdNewReplicaSet: created,
    specReplicas: all.reduce((total, rs) => total + stateOf(rs).replicas, 0),
    replicas: sum((s) => s.replicas),
    updatedReplicas: newRS ? ((ctx.caches.replicasets.get(newRS.metadata.namespace, newRS.metadata.name ?? '')?.status ?? {}) as RsStatus).replicas ?? 0 : 0,
    readyReplicas: sum((s) => s.readyReplicas),
    availableReplicas: sum((s) => s.availableReplicas),
    ...(previous.collisionCount !== undefined ? { collisionCount: previous.collisionCount } : {}),
    previousConditions: previous.conditions ?? [],
    now: kubeTime(),
  });
  if (canonicalJson(next) === canonicalJson(d.status ?? {})) return;
  ctx.writer.updateStatus(DEFS.deployments, { ...d, status: next }, CONTROLLER_MANAGER);
}
