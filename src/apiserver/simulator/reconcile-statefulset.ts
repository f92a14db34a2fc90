// StatefulSet controller: stable pods `<sts>-<ordinal>`, created in order and
// removed in reverse order (one at a time under OrderedReady, all at once under
// Parallel), rolled from the highest ordinal down to the partition, with
// ControllerRevisions and currentRevision / updateRevision in status.
// PersistentVolumeClaims of volumeClaimTemplates are referenced but not created.
import type { KubeObject } from '../../core/types.ts';
import { bindAtCreation, buildPod, CONTROLLER_MANAGER, type PodTemplate } from './build-pod.ts';
import { canonicalJson } from './kube-hash.ts';
import { cleanupRevisions, ensureRevision } from './controller-revisions.ts';
import { DEFS, isPodReady, isTerminating, ownerRef, podAvailability, type SimContext } from './sim-context.ts';

const POD_REVISION_LABEL = 'controller-revision-hash';

interface StatefulSetSpec {
  replicas?: number;
  serviceName?: string;
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  ordinals?: { start?: number };
  template?: PodTemplate;
  volumeClaimTemplates?: Array<{ metadata?: { name?: string } }>;
}

function isHealthy(pod: KubeObject): boolean {
  return !isTerminating(pod) && (pod.status as { phase?: string } | undefined)?.phase === 'Running' && isPodReady(pod);
}

function buildStatefulPod(sts: KubeObject, spec: StatefulSetSpec, ordinal: number, revisionName: string): KubeObject {
  const name = `${sts.metadata.name}-${ordinal}`;
  const template = spec.template ?? {};
  const volumes = [...((template.spec?.volumes as unknown[] | undefined) ?? [])];
  for (const claim of spec.volumeClaimTemplates ?? []) {
    const claimName = claim.metadata?.name ?? '';
    volumes.push({ name: claimName, persistentVolumeClaim: { claimName: `${claimName}-${name}` } });
  }
  const extra: Record<string, unknown> = { hostname: name };
  if (spec.serviceName) extra.subdomain = spec.serviceName;
  if (volumes.length) extra.volumes = volumes;
  return buildPod({
    template, namespace: sts.metadata.namespace ?? '', name,
    owner: ownerRef(sts, 'apps/v1', 'StatefulSet'),
    labels: { [POD_REVISION_LABEL]: revisionName, 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(ordinal) },
    spec: extra,
  });
}

export function reconcileStatefulSet(ctx: SimContext, namespace: string, name: string): void {
  const sts = ctx.caches.statefulsets.get(namespace, name);
  if (!sts || isTerminating(sts)) return;
  const spec = (sts.spec ?? {}) as StatefulSetSpec;
  const previous = (sts.status ?? {}) as { currentRevision?: string; collisionCount?: number };
  const update = ensureRevision(ctx, sts, 'StatefulSet', spec.template, previous.collisionCount);
  const currentRevision = previous.currentRevision ?? update.name;
  const parallel = spec.podManagementPolicy === 'Parallel';
  const start = spec.ordinals?.start ?? 0;
  const replicas = spec.replicas ?? 1;
  const partition = spec.updateStrategy?.rollingUpdate?.partition ?? 0;

  const byOrdinal = new Map<number, KubeObject>();
  const condemned: KubeObject[] = [];
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`);
  for (const pod of ctx.caches.pods.byIndex('owner', sts.metadata.uid ?? '')) {
    const ordinal = Number(pattern.exec(pod.metadata.name ?? '')?.[1] ?? -1);
    if (ordinal >= start && ordinal < start + replicas) byOrdinal.set(ordinal, pod);
    else condemned.push(pod);
  }

  let allHealthy = true;
  for (let ordinal = start; ordinal < start + replicas; ordinal++) {
    const pod = byOrdinal.get(ordinal);
    const phase = (pod?.status as { phase?: string } | undefined)?.phase;
    if (!pod) {
      const revision = ordinal - start < partition && currentRevision !== update.name ? currentRevision : update.name;
      byOrdinal.set(ordinal, ctx.writer.create(DEFS.pods, bindAtCreation(ctx, buildStatefulPod(sts, spec, ordinal, revision)), CONTROLLER_MANAGER));
      allHealthy = false;
    } else if (!isTerminating(pod) && (phase === 'Succeeded' || phase === 'Failed')) {
      ctx.writer.delete(DEFS.pods, pod); // recreated on a later pass
      allHealthy = false;
    } else if (!isHealthy(pod)) {
      allHealthy = false;
    }
    if (!allHealthy && !parallel) break;
  }

  // Scale down from the highest ordinal, one at a time unless Parallel.
  const live = condemned.filter((p) => !isTerminating(p)).sort((a, b) => (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '', undefined, { numeric: true }));
  if (parallel) for (const pod of live) ctx.writer.delete(DEFS.pods, pod);
  else if (allHealthy && live[0] && condemned.every((p) => !isTerminating(p))) ctx.writer.delete(DEFS.pods, live[0]);

  // Rolling update: replace the highest out-of-date ordinal at or above the partition, once all are healthy.
  if (allHealthy && condemned.length === 0 && (spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
      const pod = byOrdinal.get(ordinal);
      if (pod && pod.metadata.labels?.[POD_REVISION_LABEL] !== update.name) {
        ctx.writer.delete(DEFS.pods, pod);
        break;
      }
    }
  }
  writeStatus(ctx, sts, spec, currentRevision, update.name);
}

function writeStatus(ctx: SimContext, sts: KubeObject, spec: StatefulSetSpec, currentRevision: string, updateRevision: string): void {
  const pods = ctx.caches.pods.byIndex('owner', sts.metadata.uid ?? '').filter((p) => !isTerminating(p));
  const now = Date.now();
  const replicas = pods.length;
  const ready = pods.filter(isPodReady).length;
  const available = pods.filter((p) => podAvailability(p, spec.minReadySeconds ?? 0, now).available).length;
  const updated = pods.filter((p) => p.metadata.labels?.[POD_REVISION_LABEL] === updateRevision).length;
  let current = pods.filter((p) => p.metadata.labels?.[POD_REVISION_LABEL] === currentRevision).length;
  // Rollout done: the update revision becomes the current one.
  if (updated === (spec.replicas ?? 1) && replicas === updated && ready === replicas) {
    currentRevision = updateRevision;
    current = updated;
  }
  const status: Record<string, unknown> = {
    availableReplicas: available,
    collisionCount: (sts.status as { collisionCount?: number } | undefined)?.collisionCount ?? 0,
    currentRevision,
    observedGeneration: sts.metadata.generation,
    replicas,
    updateRevision,
  };
  if (current) status.currentReplicas = current;
  if (ready) status.readyReplicas = ready;
  if (updated) status.updatedReplicas = updated;
  const keep = new Set([currentRevision, updateRevision, ...pods.map((p) => p.metadata.labels?.[POD_REVISION_LABEL] ?? '')]);
  cleanupRevisions(ctx, sts, keep, spec.revisionHistoryLimit ?? 10);
  if (canonicalJson(status) === canonicalJson(sts.status ?? {})) return;
  ctx.writer.updateStatus(DEFS.statefulsets, { ...sts, status }, CONTROLLER_MANAGER);
}
