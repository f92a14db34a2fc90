// The workload simulator (`--simulate-workloads`): kwok in-process. It watches
// workloads through ResourceApi like kube-controller-manager, kube-scheduler and
// kubelets would, and writes back pods and statuses, so member clusters report
// realistic Ready workloads without running a container.
//
// Shape: one informer cache per resource → event handlers enqueue keys (the
// object, and its controller owner) → the shared work queue (src/workqueue; a
// key waits once) → one worker (sim-worker.ts) → one small reconciler per kind.
// Handlers never write; only reconcilers do, after the write that delivered the
// event has returned.
import type { KubeObject } from '../../core/types.ts';
import type { ResourceApi } from '../registry/resource-api.ts';
import { CachedWriter } from './cached-writer.ts';
import { ensureFakeNodes, heartbeat, isSimulatedNode } from './fake-nodes.ts';
import { controllerUid, ObjectCache, type ChangeHandler } from './object-cache.ts';
import { PodClock } from './pod-clock.ts';
import { reconcileDaemonSet } from './reconcile-daemonset.ts';
import { reconcileDeployment } from './reconcile-deployment.ts';
import { reconcileJob } from './reconcile-job.ts';
import { reconcilePod } from './reconcile-pod.ts';
import { reconcileReplicaSet, reconcileReplicationController } from './reconcile-replicaset.ts';
import { reconcileStatefulSet } from './reconcile-statefulset.ts';
import { DEFS, parseQueueKey, queueKey, type SimCaches, type SimContext, type SimulatorSettings, type WorkloadKind } from './sim-context.ts';
import { canonicalJson } from './kube-hash.ts';
import { createWorkQueue, type WorkQueue } from '../../workqueue/work-queue.ts';
import { startSimWorker } from './sim-worker.ts';

/** Reported by fake kubelets unless the server passes its own /version gitVersion. */
export const DEFAULT_KUBELET_VERSION = 'v1.33.0';

export interface WorkloadSimulatorOptions {
  /** Fake nodes sim-node-1..N (default 3). */
  nodes?: number;
  /** Pending → Running delay of each pod (default 200 ms; 0 = straight to Running in one write). */
  podStartDelayMs?: number;
  /** How long Job pods run before they succeed (default 1000 ms). */
  jobPodRunMs?: number;
  /** Ready-condition heartbeat interval of fake nodes (default 60 s; 0 = none). */
  heartbeatIntervalMs?: number;
  /** nodeInfo.kubeletVersion; pass the server's /version gitVersion. */
  kubeletVersion?: string;
  log?: (line: string) => void;
}

export interface WorkloadSimulator {
  stop(): Promise<void>;
}

const OWNED_KINDS = new Set<string>(['ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'Deployment']);

/** Enqueues the object itself (under `kind`) and its controller owner, if that is a kind we reconcile. */
function enqueueSelfAndOwner(queue: WorkQueue, kind: WorkloadKind | undefined): ChangeHandler {
  return (previous, current) => {
    const obj = (current ?? previous) as KubeObject;
    if (kind && current) queue.add(queueKey(kind, obj.metadata.namespace, obj.metadata.name));
    const owner = obj.metadata.ownerReferences?.find((ref) => ref.controller);
    if (owner && OWNED_KINDS.has(owner.kind)) queue.add(queueKey(owner.kind as WorkloadKind, obj.metadata.namespace, owner.name));
  };
}

function dispatch(ctx: SimContext, key: string): void {
  const { kind, namespace, name } = parseQueueKey(key);
  switch (kind) {
    case 'Deployment': return reconcileDeployment(ctx, namespace, name);
    case 'ReplicaSet': return reconcileReplicaSet(ctx, namespace, name);
    case 'ReplicationController': return reconcileReplicationController(ctx, namespace, name);
    case 'StatefulSet': return reconcileStatefulSet(ctx, namespace, name);
    case 'DaemonSet': return reconcileDaemonSet(ctx, namespace, name);
    case 'Job': return reconcileJob(ctx, namespace, name);
    case 'Pod': return reconcilePod(ctx, namespace, name);
  }
}

export function startWorkloadSimulator(api: ResourceApi, options: WorkloadSimulatorOptions = {}): WorkloadSimulator {
  const log = options.log ?? (() => {});
  const settings: SimulatorSettings = {
    nodes: options.nodes ?? 3,
    podStartDelayMs: options.podStartDelayMs ?? 200,
    jobPodRunMs: options.jobPodRunMs ?? 1000,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 60_000,
    kubeletVersion: options.kubeletVersion ?? DEFAULT_KUBELET_VERSION,
  };
  // Failures other than conflicts back off from 100 ms to 5 s per key (sim-worker.ts).
  const queue = createWorkQueue({ backoff: { initialMs: 100, maxMs: 5_000 } });
  const clock = new PodClock();
  const byOwner = { owner: controllerUid };

  const caches: SimCaches = {} as SimCaches;
  const onNode: ChangeHandler = (previous, current) => {
    // Heartbeats change only status: only membership and labels matter to DaemonSets.
    if (previous && current && canonicalJson(previous.metadata.labels ?? {}) === canonicalJson(current.metadata.labels ?? {})) return;
    for (const ds of caches.daemonsets?.all() ?? []) queue.add(queueKey('DaemonSet', ds.metadata.namespace, ds.metadata.name));
  };
  const onPod: ChangeHandler = (previous, current) => {
    enqueueSelfAndOwner(queue, 'Pod')(previous, current);
    if (!current && previous) clock.forget(previous.metadata.uid ?? '');
  };
  caches.nodes = new ObjectCache(DEFS.nodes, api, {}, onNode, log);
  caches.pods = new ObjectCache(DEFS.pods, api, { ...byOwner, node: (p) => (p.spec as { nodeName?: string } | undefined)?.nodeName }, onPod, log);
  caches.deployments = new ObjectCache(DEFS.deployments, api, {}, enqueueSelfAndOwner(queue, 'Deployment'), log);
  caches.replicasets = new ObjectCache(DEFS.replicasets, api, byOwner, enqueueSelfAndOwner(queue, 'ReplicaSet'), log);
  caches.replicationcontrollers = new ObjectCache(DEFS.replicationcontrollers, api, {}, enqueueSelfAndOwner(queue, 'ReplicationController'), log);
  caches.statefulsets = new ObjectCache(DEFS.statefulsets, api, {}, enqueueSelfAndOwner(queue, 'StatefulSet'), log);
  caches.daemonsets = new ObjectCache(DEFS.daemonsets, api, {}, enqueueSelfAndOwner(queue, 'DaemonSet'), log);
  caches.revisions = new ObjectCache(DEFS.revisions, api, byOwner, enqueueSelfAndOwner(queue, undefined), log);
  caches.jobs = new ObjectCache(DEFS.jobs, api, {}, enqueueSelfAndOwner(queue, 'Job'), log);
  const all = Object.values(caches);
  const writer = new CachedWriter(api, (def) => all.find((c) => c.def === def));
  const ctx: SimContext = { caches, writer, queue, clock, settings, log };
  const worker = startSimWorker(queue, (key) => dispatch(ctx, key), log);

  ensureFakeNodes(api, settings.nodes, settings.kubeletVersion);
  // Nodes first, then pods, then the owners: the first reconciles see a warm cache.
  for (const cache of [caches.nodes, caches.pods, caches.revisions, caches.replicasets, caches.replicationcontrollers, caches.deployments, caches.statefulsets, caches.daemonsets, caches.jobs]) cache.start();
  log(`simulator: ${settings.nodes} fake nodes, watching workloads`);

  const timer = settings.heartbeatIntervalMs > 0
    ? setInterval(() => {
      for (const node of caches.nodes.all()) {
        if (!isSimulatedNode(node)) continue;
        try {
          heartbeat(api, node, settings.kubeletVersion);
        } catch (err) {
          log(`simulator: heartbeat of ${node.metadata.name} failed: ${(err as Error).message}`);
        }
      }
    }, settings.heartbeatIntervalMs)
    : undefined;

  return {
    async stop() {
      if (timer) clearInterval(timer);
      worker.stop();
      for (const cache of all) cache.stop();
    },
  };
}
