// What the tenant asks for, in the three tenant-wide quota resources. The rules
// (also in docs/user-guide.md, "Quota"):
// - requests.cpu / requests.memory: pods that would run, as the tenant wrote them.
//   A bare Pod counts once (not when Succeeded or Failed). A workload counts its
//   pod template × the pods it asks for: Deployment, ReplicaSet, StatefulSet and
//   ReplicationController spec.replicas (default 1); Job min(parallelism (default 1),
//   completions − succeeded), 0 when suspended or finished; CronJob 0 (the Jobs it
//   starts count, once they exist); DaemonSet one pod (the node count is the
//   platform's, not the tenant's choice, and differs per member: one pod is what
//   the tenant can be sure to run). Pods and ReplicaSets a counted workload
//   controls are not counted again (its template already is).
// - requests.storage: PVC spec.resources.requests.storage, plus each StatefulSet's
//   volumeClaimTemplates × replicas for claims that do not exist yet (an existing
//   claim with the same name counts once, at its own size).
// Propagation does not multiply: a template counts once, however many members
// it is spread over.
import type { KubeObject } from '../../types.ts';
import { buildPodDemand } from './pod-demand.ts';
import { add, quantityOf, times, ZERO, type Rational } from './quantity-math.ts';
import { fromHeld, isHeld } from '../../propagation/host-hold.ts';

export const QUOTA_RESOURCES = ['requests.cpu', 'requests.memory', 'requests.storage'] as const;
export type QuotaResource = (typeof QUOTA_RESOURCES)[number];
export type Usage = Record<QuotaResource, Rational>;

/** One stored object of a counted resource, with the resource it was read from. */
export interface QuotaObject {
  group: string;
  resource: string;
  obj: KubeObject;
}

export function emptyUsage(): Usage {
  return { 'requests.cpu': ZERO, 'requests.memory': ZERO, 'requests.storage': ZERO };
}

type Replicas = (obj: KubeObject) => number;

const specOf = (obj: KubeObject): Record<string, unknown> => (typeof obj.spec === 'object' && obj.spec !== null ? (obj.spec as Record<string, unknown>) : {});
const count = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : fallback);
const specReplicas: Replicas = (obj) => count(specOf(obj).replicas, 1);

function jobPods(obj: KubeObject): number {
  const spec = specOf(obj);
  if (spec.suspend === true) return 0;
  const status = (obj.status ?? {}) as { conditions?: Array<{ type?: string; status?: string }>; succeeded?: number };
  if (status.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) return 0;
  const parallelism = count(spec.parallelism, 1);
  if (spec.completions === undefined || spec.completions === null) return parallelism;
  return Math.max(0, Math.min(parallelism, count(spec.completions, 1) - count(status.succeeded, 0)));
}

/** A propagated workload is held upstream (ADR 0023: 0 replicas, parallelism 0): its demand is the tenant's view's. */
const tenantView = (replicas: Replicas): Replicas => (obj) => replicas(isHeld(obj) ? fromHeld(obj) : obj);

/** Workload resources (group/resource) and how many pods each asks for. */
export const WORKLOADS: ReadonlyMap<string, Replicas> = new Map([
  ['apps/deployments', tenantView(specReplicas)],
  ['apps/replicasets', tenantView(specReplicas)],
  ['apps/statefulsets', tenantView(specReplicas)],
  ['/replicationcontrollers', tenantView(specReplicas)],
  ['apps/daemonsets', () => 1],
  ['batch/jobs', tenantView(jobPods)],
]);

/** Every group/resource whose objects the quota reads. */
export const COUNTED_RESOURCES: readonly string[] = ['/pods', '/persistentvolumeclaims', ...WORKLOADS.keys()];

// Owners whose template already counts what they create.
const COUNTED_OWNERS: Record<string, ReadonlySet<string>> = {
  '/pods': new Set(['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController']),
  'apps/replicasets': new Set(['Deployment']),
};

export const keyOf = (group: string, resource: string): string => `${group}/${resource}`;

function countedElsewhere(key: string, obj: KubeObject): boolean {
  const owners = COUNTED_OWNERS[key];
  const controller = obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
  return owners !== undefined && controller !== undefined && owners.has(controller.kind);
}

/** requests.cpu and requests.memory of one object (0 for what does not run pods). */
export function buildComputeDemand(item: QuotaObject): Usage {
  const key = keyOf(item.group, item.resource);
  const usage = emptyUsage();
  if (countedElsewhere(key, item.obj)) return usage;
  let pods = 0;
  let podSpec: unknown;
  if (key === '/pods') {
    const phase = (item.obj.status as { phase?: string } | undefined)?.phase;
    pods = phase === 'Succeeded' || phase === 'Failed' ? 0 : 1;
    podSpec = item.obj.spec;
  } else {
    const replicas = WORKLOADS.get(key);
    if (!replicas) return usage;
    pods = replicas(item.obj);
    podSpec = (specOf(item.obj).template as { spec?: unknown } | undefined)?.spec;
  }
  const pod = buildPodDemand(podSpec);
  usage['requests.cpu'] = times(pod.cpu, pods);
  usage['requests.memory'] = times(pod.memory, pods);
  return usage;
}

function storageOf(claimSpec: unknown): Rational {
  const requests = (claimSpec as { resources?: { requests?: { storage?: unknown } } } | undefined)?.resources?.requests;
  return quantityOf(requests?.storage) ?? ZERO;
}

/** Claims (namespace/name → storage): existing PVCs, then StatefulSet claims not yet made. */
export function buildClaims(items: Iterable<QuotaObject>): Map<string, Rational> {
  const claims = new Map<string, Rational>();
  const planned: Array<[string, Rational]> = [];
  for (const { group, resource, obj } of items) {
    const ns = obj.metadata.namespace ?? '';
    if (group === '' && resource === 'persistentvolumeclaims') claims.set(`${ns}/${obj.metadata.name ?? ''}`, storageOf(obj.spec));
    if (group !== 'apps' || resource !== 'statefulsets') continue;
    const templates = specOf(obj).volumeClaimTemplates;
    const replicas = specReplicas(obj);
    for (const t of Array.isArray(templates) ? (templates as KubeObject[]) : []) {
      const storage = storageOf(t.spec);
      // StatefulSet claim names: <template>-<statefulset>-<ordinal>.
      for (let i = 0; i < replicas; i++) planned.push([`${ns}/${t.metadata?.name ?? ''}-${obj.metadata.name ?? ''}-${i}`, storage]);
    }
  }
  for (const [key, storage] of planned) if (!claims.has(key)) claims.set(key, storage);
  return claims;
}

/** The tenant's usage over everything it has of the counted resources. */
export function buildUsage(items: Iterable<QuotaObject>): Usage {
  const list = [...items];
  const usage = emptyUsage();
  for (const item of list) {
    const d = buildComputeDemand(item);
    usage['requests.cpu'] = add(usage['requests.cpu'], d['requests.cpu']);
    usage['requests.memory'] = add(usage['requests.memory'], d['requests.memory']);
  }
  for (const storage of buildClaims(list).values()) usage['requests.storage'] = add(usage['requests.storage'], storage);
  return usage;
}
