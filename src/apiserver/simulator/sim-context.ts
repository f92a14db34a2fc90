// What every reconciler of the simulator receives: the API, the informer caches,
// the writer, the queue and the resolved options. Reconcilers are plain functions
// over this context, so tests can drive them through a fake ResourceApi.
import { BUILTIN_RESOURCES } from '../../core/resources/builtin-resources.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ObjectCache } from './object-cache.ts';
import type { CachedWriter } from './cached-writer.ts';
import type { WorkQueue } from '../../workqueue/work-queue.ts';
import type { PodClock } from './pod-clock.ts';

export type WorkloadKind = 'Deployment' | 'ReplicaSet' | 'ReplicationController' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'Pod';

export interface SimulatorSettings {
  nodes: number;
  podStartDelayMs: number;
  /** How long a Job's pod runs before it succeeds. */
  jobPodRunMs: number;
  /** Interval of Ready-condition heartbeats on fake nodes; 0 disables them. */
  heartbeatIntervalMs: number;
  kubeletVersion: string;
}

export interface SimCaches {
  nodes: ObjectCache;
  pods: ObjectCache;
  deployments: ObjectCache;
  replicasets: ObjectCache;
  replicationcontrollers: ObjectCache;
  statefulsets: ObjectCache;
  daemonsets: ObjectCache;
  revisions: ObjectCache;
  jobs: ObjectCache;
}

export interface SimContext {
  caches: SimCaches;
  writer: CachedWriter;
  queue: WorkQueue;
  clock: PodClock;
  settings: SimulatorSettings;
  log: (line: string) => void;
}

function builtin(group: string, resource: string): ResourceDef {
  const def = BUILTIN_RESOURCES.find((d) => d.group === group && d.resource === resource);
  if (!def) throw new Error(`built-in resource ${resource}.${group} is missing`);
  return def;
}

export const DEFS = {
  nodes: builtin('', 'nodes'),
  pods: builtin('', 'pods'),
  deployments: builtin('apps', 'deployments'),
  replicasets: builtin('apps', 'replicasets'),
  replicationcontrollers: builtin('', 'replicationcontrollers'),
  statefulsets: builtin('apps', 'statefulsets'),
  daemonsets: builtin('apps', 'daemonsets'),
  revisions: builtin('apps', 'controllerrevisions'),
  jobs: builtin('batch', 'jobs'),
} as const;

/** Queue keys: "<Kind>|<namespace>|<name>". */
export function queueKey(kind: WorkloadKind, namespace: string | undefined, name: string | undefined): string {
  return `${kind}|${namespace ?? ''}|${name ?? ''}`;
}

export function parseQueueKey(key: string): { kind: WorkloadKind; namespace: string; name: string } {
  const [kind = '', namespace = '', name = ''] = key.split('|');
  return { kind: kind as WorkloadKind, namespace, name };
}

export function isTerminating(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined;
}

/** Pods that count toward a controller's replicas: not terminating, not finished. */
export function isActivePod(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return !isTerminating(pod) && phase !== 'Succeeded' && phase !== 'Failed';
}

export function isPodReady(pod: KubeObject): boolean {
  const conditions = (pod.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions;
  return conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Ready for at least minReadySeconds; returns ms still to wait when ready but not yet available. */
export function podAvailability(pod: KubeObject, minReadySeconds: number, now: number): { available: boolean; waitMs: number } {
  if (!isPodReady(pod)) return { available: false, waitMs: 0 };
  if (minReadySeconds <= 0) return { available: true, waitMs: 0 };
  const conditions = (pod.status as { conditions?: Array<{ type: string; lastTransitionTime?: string }> }).conditions ?? [];
  const since = Date.parse(conditions.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '');
  if (!Number.isFinite(since)) return { available: true, waitMs: 0 };
  const waitMs = since + minReadySeconds * 1000 - now;
  return waitMs <= 0 ? { available: true, waitMs: 0 } : { available: false, waitMs };
}

export function ownerRef(owner: KubeObject, apiVersion: string, kind: string) {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}
