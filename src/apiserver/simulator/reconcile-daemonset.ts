// DaemonSet controller: one pod per eligible node (nodeSelector only: affinity
// and taints are not evaluated), pinned by nodeName and by the same
// matchFields node affinity the real controller sets, rolled maxUnavailable
// nodes at a time under RollingUpdate.
import type { KubeObject } from '../../core/types.ts';
import { buildPod, createPodWithRandomSuffix, CONTROLLER_MANAGER, type PodTemplate } from './build-pod.ts';
import { canonicalJson } from './kube-hash.ts';
import { cleanupRevisions, ensureRevision } from './controller-revisions.ts';
import { resolveIntOrPercent, type IntOrString } from './deployment-rollout.ts';
import { labelsMatch } from './labels-match.ts';
import { DEFS, isActivePod, isPodReady, ownerRef, isTerminating, podAvailability, type SimContext } from './sim-context.ts';

const POD_REVISION_LABEL = 'controller-revision-hash';

interface DaemonSetSpec {
  template?: PodTemplate;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { maxUnavailable?: IntOrString } };
}

/** The tolerations the DaemonSet controller adds so its pods survive node trouble. */
const DAEMON_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

function daemonPodSpec(template: PodTemplate, nodeName: string): Record<string, unknown> {
  const own = (template.spec?.tolerations as Array<{ key?: string }> | undefined) ?? [];
  const tolerations = [...own, ...DAEMON_TOLERATIONS.filter((t) => !own.some((o) => o.key === t.key))];
  const affinity = {
    ...((template.spec?.affinity as object | undefined) ?? {}),
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] } },
  };
  return { nodeName, affinity, tolerations };
}

export function reconcileDaemonSet(ctx: SimContext, namespace: string, name: string): void {
  const ds = ctx.caches.daemonsets.get(namespace, name);
  if (!ds || isTerminating(ds)) return;
  const spec = (ds.spec ?? {}) as DaemonSetSpec;
  const template = spec.template ?? {};
  const revision = ensureRevision(ctx, ds, 'DaemonSet', template, (ds.status as { collisionCount?: number } | undefined)?.collisionCount);
  const nodeSelector = template.spec?.nodeSelector as Record<string, string> | undefined;
  const eligible = [...ctx.caches.nodes.all()].filter((n) => !isTerminating(n) && labelsMatch(nodeSelector, n.metadata.labels)).map((n) => n.metadata.name ?? '');
  const eligibleSet = new Set(eligible);

  const byNode = new Map<string, KubeObject[]>();
  for (const pod of ctx.caches.pods.byIndex('owner', ds.metadata.uid ?? '').filter(isActivePod)) {
    const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
    if (!eligibleSet.has(node)) { ctx.writer.delete(DEFS.pods, pod); continue; }
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  const owner = ownerRef(ds, 'apps/v1', 'DaemonSet');
  for (const node of eligible) {
    const pods = (byNode.get(node) ?? []).sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    if (pods.length === 0) {
      const labels = { [POD_REVISION_LABEL]: revision.hash, 'pod-template-generation': String(ds.metadata.generation ?? 1) };
      createPodWithRandomSuffix(ctx, `${name}-`, (podName) => buildPod({ template, namespace, name: podName, generateName: `${name}-`, owner, labels, spec: daemonPodSpec(template, node) }));
    }
    for (const extra of pods.slice(1)) ctx.writer.delete(DEFS.pods, extra);
  }

  if ((spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    const maxUnavailable = Math.max(1, resolveIntOrPercent(spec.updateStrategy?.rollingUpdate?.maxUnavailable, '1', eligible.length, true));
    const current = eligible.map((n) => byNode.get(n)?.[0]).filter((p): p is KubeObject => p !== undefined);
    const unavailable = eligible.length - current.filter(isPodReady).length;
    const old = current.filter((p) => p.metadata.labels?.[POD_REVISION_LABEL] !== revision.hash).sort((a, b) => Number(isPodReady(a)) - Number(isPodReady(b)));
    let budget = maxUnavailable - unavailable;
    for (const pod of old) {
      if (isPodReady(pod) && budget <= 0) break;
      ctx.writer.delete(DEFS.pods, pod);
      if (isPodReady(pod)) budget--;
    }
  }
  writeStatus(ctx, ds, spec, eligibleSet, revision.hash, revision.name);
}

function writeStatus(ctx: SimContext, ds: KubeObject, spec: DaemonSetSpec, eligible: Set<string>, hash: string, revisionName: string): void {
  const now = Date.now();
  const pods = ctx.caches.pods.byIndex('owner', ds.metadata.uid ?? '').filter(isActivePod);
  const scheduled = new Set<string>();
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const pod of pods) {
    const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
    if (!eligible.has(node)) { misscheduled++; continue; }
    if (scheduled.has(node)) continue;
    scheduled.add(node);
    if (isPodReady(pod)) ready++;
    if (podAvailability(pod, spec.minReadySeconds ?? 0, now).available) available++;
    if (pod.metadata.labels?.[POD_REVISION_LABEL] === hash) updated++;
  }
  const status: Record<string, unknown> = {
    currentNumberScheduled: scheduled.size,
    desiredNumberScheduled: eligible.size,
    numberMisscheduled: misscheduled,
    numberReady: ready,
  };
  if (available) status.numberAvailable = available;
  if (eligible.size - available > 0) status.numberUnavailable = eligible.size - available;
  if (ds.metadata.generation !== undefined) status.observedGeneration = ds.metadata.generation;
  if (updated) status.updatedNumberScheduled = updated;
  const keep = new Set([revisionName]);
  cleanupRevisions(ctx, ds, keep, spec.revisionHistoryLimit ?? 10);
  if (canonicalJson(status) === canonicalJson(ds.status ?? {})) return;
  ctx.writer.updateStatus(DEFS.daemonsets, { ...ds, status }, CONTROLLER_MANAGER);
}
