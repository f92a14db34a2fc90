// The kubelet (and scheduler) of fake nodes: binds unbound pods, then moves pods
// on simulated nodes Pending → Running after podStartDelayMs, Job pods on to
// Succeeded after jobPodRunMs, and finishes graceful deletions as a kubelet would.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { kubeTime } from './conditions.ts';
import { isSimulatedNode, nodeInternalIp } from './fake-nodes.ts';
import { canonicalJson } from './kube-hash.ts';
import { pickNode } from './pod-scheduler.ts';
import { pendingStatus, runningStatus, succeededStatus, unschedulableStatus, type PodSpecLike, type PodStatusLike } from './pod-status.ts';
import { DEFS, isTerminating, queueKey, type SimContext } from './sim-context.ts';

const KUBELET = 'kubelet';
const UNSCHEDULABLE_RETRY_MS = 5_000;

function isJobPod(pod: KubeObject): boolean {
  return pod.metadata.ownerReferences?.some((ref) => ref.controller && ref.kind === 'Job') ?? false;
}

function writeStatus(ctx: SimContext, pod: KubeObject, status: PodStatusLike): void {
  if (canonicalJson(status) === canonicalJson(pod.status ?? {})) return;
  ctx.writer.updateStatus(DEFS.pods, { ...pod, status }, KUBELET);
}

function hostIpOf(node: KubeObject): string {
  const addresses = (node.status as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses;
  return addresses?.find((a) => a.type === 'InternalIP')?.address ?? nodeInternalIp(0);
}

export function reconcilePod(ctx: SimContext, namespace: string, name: string): void {
  const pod = ctx.caches.pods.get(namespace, name);
  if (!pod) return;
  const uid = pod.metadata.uid ?? '';
  const spec = (pod.spec ?? {}) as PodSpecLike & { nodeName?: string; schedulerName?: string; nodeSelector?: Record<string, string> };
  if (!spec.nodeName) {
    if (isTerminating(pod)) return finishDeletion(ctx, pod);
    return schedule(ctx, pod, spec);
  }
  const node = ctx.caches.nodes.get('', spec.nodeName);
  if (!node || !isSimulatedNode(node)) return;
  if (isTerminating(pod)) return finishDeletion(ctx, pod);

  const status = (pod.status ?? {}) as PodStatusLike;
  const now = Date.now();
  const key = queueKey('Pod', namespace, name);
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return;
  if (status.phase === 'Running') {
    if (!isJobPod(pod)) return;
    const remaining = ctx.settings.jobPodRunMs - ctx.clock.runningFor(uid, now);
    if (remaining > 0) return ctx.queue.addAfter(key, remaining);
    writeStatus(ctx, pod, succeededStatus(spec, status, kubeTime(now)));
    ctx.clock.forget(uid);
    return;
  }
  ctx.clock.markPending(uid, now);
  const waited = ctx.clock.pendingFor(uid, now);
  const hostIP = hostIpOf(node);
  if (waited >= ctx.settings.podStartDelayMs) {
    const podIP = status.podIP ?? ctx.clock.allocateIp((node.spec as { podCIDR?: string } | undefined)?.podCIDR);
    writeStatus(ctx, pod, runningStatus(spec, status, { hostIP, podIP }, kubeTime(now)));
    ctx.clock.markRunning(uid, now);
    if (isJobPod(pod)) ctx.queue.addAfter(key, ctx.settings.jobPodRunMs);
    return;
  }
  writeStatus(ctx, pod, pendingStatus(spec, status, hostIP, kubeTime(now)));
  ctx.queue.addAfter(key, ctx.settings.podStartDelayMs - waited);
}

/** What a kubelet does once containers are stopped: the final, immediate delete. */
function finishDeletion(ctx: SimContext, pod: KubeObject): void {
  ctx.clock.forget(pod.metadata.uid ?? '');
  if ((pod.metadata.finalizers?.length ?? 0) > 0) return;
  ctx.writer.delete(DEFS.pods, pod, { gracePeriodSeconds: 0 });
}

function schedule(ctx: SimContext, pod: KubeObject, spec: { schedulerName?: string; nodeSelector?: Record<string, string> }): void {
  if (spec.schedulerName && spec.schedulerName !== 'default-scheduler') return;
  const choice = pickNode(ctx.caches.nodes.all(), spec, (n) => ctx.caches.pods.countByIndex('node', n));
  if (!choice.nodeName) {
    writeStatus(ctx, pod, unschedulableStatus((pod.status ?? {}) as PodStatusLike, choice.message ?? '', kubeTime()));
    ctx.queue.addAfter(queueKey('Pod', pod.metadata.namespace, pod.metadata.name), UNSCHEDULABLE_RETRY_MS);
    return;
  }
  try {
    // kube-scheduler binds through pods/binding; ResourceApi serves only status and
    // scale subresources, so we set spec.nodeName with an update instead.
    ctx.writer.update(DEFS.pods, { ...pod, spec: { ...(pod.spec as object), nodeName: choice.nodeName } }, 'kube-scheduler');
  } catch (err) {
    if (err instanceof ApiError && (err.reason === 'Invalid' || err.reason === 'Forbidden' || err.reason === 'BadRequest')) {
      ctx.log(`simulator: cannot bind pod ${pod.metadata.namespace}/${pod.metadata.name}: ${err.message}`);
      return;
    }
    throw err;
  }
}
