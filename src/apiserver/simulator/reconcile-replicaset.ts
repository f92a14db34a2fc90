// ReplicaSet controller: keeps spec.replicas active pods (found through the
// owner-uid index, never by scanning), deletes the least useful pods first on
// scale-down, and reports replicas / fullyLabeled / ready / available.
// ReplicationControllers are the same controller in kube (replication/ wraps
// replicaset/ with a conversion), so they share this one, with their own kind.
import type { KubeObject } from '../../core/types.ts';
import { createPodWithRandomSuffix, buildPod, CONTROLLER_MANAGER, type PodTemplate } from './build-pod.ts';
import { canonicalJson } from './kube-hash.ts';
import { labelsMatch } from './labels-match.ts';
import type { ObjectCache } from './object-cache.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { DEFS, isActivePod, isPodReady, isTerminating, ownerRef, podAvailability, queueKey, type SimCaches, type SimContext } from './sim-context.ts';

/** What differs between a ReplicaSet and a ReplicationController here: where it lives and how pods name their owner. */
interface ReplicaKind {
  kind: 'ReplicaSet' | 'ReplicationController';
  apiVersion: string;
  def: ResourceDef;
  cache: (caches: SimCaches) => ObjectCache;
}

const REPLICA_SET: ReplicaKind = { kind: 'ReplicaSet', apiVersion: 'apps/v1', def: DEFS.replicasets, cache: (c) => c.replicasets };
const REPLICATION_CONTROLLER: ReplicaKind = { kind: 'ReplicationController', apiVersion: 'v1', def: DEFS.replicationcontrollers, cache: (c) => c.replicationcontrollers };

/** Creations per pass; the rest follow on the next pass, as the controller's slow start does. */
const MAX_CREATES_PER_PASS = 500;

interface ReplicaSetSpec { replicas?: number; minReadySeconds?: number; template?: PodTemplate }

/** Deletion preference (lower goes first): unbound, then pending, then not ready, then newest. */
function deletionRank(pod: KubeObject): number {
  const spec = pod.spec as { nodeName?: string } | undefined;
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (!spec?.nodeName) return 0;
  if (phase !== 'Running') return 1;
  if (!isPodReady(pod)) return 2;
  return 3;
}

export function podsToDelete(pods: KubeObject[], count: number): KubeObject[] {
  return [...pods]
    .sort((a, b) => deletionRank(a) - deletionRank(b)
      || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')
      || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .slice(0, count);
}

export function reconcileReplicaSet(ctx: SimContext, namespace: string, name: string): void {
  reconcileReplicas(ctx, REPLICA_SET, namespace, name);
}

export function reconcileReplicationController(ctx: SimContext, namespace: string, name: string): void {
  reconcileReplicas(ctx, REPLICATION_CONTROLLER, namespace, name);
}

function reconcileReplicas(ctx: SimContext, kind: ReplicaKind, namespace: string, name: string): void {
  const rs = kind.cache(ctx.caches).get(namespace, name);
  if (!rs || isTerminating(rs)) return;
  const spec = (rs.spec ?? {}) as ReplicaSetSpec;
  const desired = spec.replicas ?? 1;
  const uid = rs.metadata.uid ?? '';
  let active = ctx.caches.pods.byIndex('owner', uid).filter(isActivePod);

  if (active.length < desired) {
    const toCreate = Math.min(desired - active.length, MAX_CREATES_PER_PASS);
    const owner = ownerRef(rs, kind.apiVersion, kind.kind);
    for (let i = 0; i < toCreate; i++) {
      createPodWithRandomSuffix(ctx, `${name}-`, (podName) => buildPod({ template: spec.template ?? {}, namespace, name: podName, generateName: `${name}-`, owner }));
    }
    if (desired - active.length > toCreate) ctx.queue.add(queueKey(kind.kind, namespace, name));
  } else if (active.length > desired) {
    for (const pod of podsToDelete(active, active.length - desired)) ctx.writer.delete(DEFS.pods, pod);
  }
  active = ctx.caches.pods.byIndex('owner', uid).filter(isActivePod);
  writeReplicaStatus(ctx, kind, rs, spec, active);
}

function writeReplicaStatus(ctx: SimContext, kind: ReplicaKind, rs: KubeObject, spec: ReplicaSetSpec, active: KubeObject[]): void {
  const now = Date.now();
  const templateLabels = spec.template?.metadata?.labels;
  let ready = 0;
  let available = 0;
  let fullyLabeled = 0;
  let recheckMs = Infinity;
  for (const pod of active) {
    if (labelsMatch(templateLabels, pod.metadata.labels)) fullyLabeled++;
    if (isPodReady(pod)) ready++;
    const availability = podAvailability(pod, spec.minReadySeconds ?? 0, now);
    if (availability.available) available++;
    else if (availability.waitMs > 0) recheckMs = Math.min(recheckMs, availability.waitMs);
  }
  if (recheckMs !== Infinity) ctx.queue.addAfter(queueKey(kind.kind, rs.metadata.namespace, rs.metadata.name), recheckMs);
  // Zero counts are omitted, as the Go types' omitempty does; replicas is always present.
  const status: Record<string, unknown> = { replicas: active.length };
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
  if (ready) status.readyReplicas = ready;
  if (available) status.availableReplicas = available;
  if (rs.metadata.generation !== undefined) status.observedGeneration = rs.metadata.generation;
  const conditions = (rs.status as { conditions?: unknown[] } | undefined)?.conditions;
  if (conditions?.length) status.conditions = conditions;
  if (canonicalJson(status) === canonicalJson(rs.status ?? {})) return;
  ctx.writer.updateStatus(kind.def, { ...rs, status }, CONTROLLER_MANAGER);
}
