// What the tenant asks for, in the three tenant-wide quota resources. The rules
// (also in docs/user-guide.md, "Quota"):
// - requests.cpu / requests.memory: pods that would run, as the tenant wrote them.
//   A bare Pod counts once (not when Succeeded or Failed). A workload counts its
//   pod template × the pods it asks for: Deployment, ReplicaSet, StatefulSet and
//   ReplicationController spec.replicas (default 1); Job min(parallelism (default 1),
//   completions − succeeded), 0 when suspended or finished; CronJob one Job of its
//   template (0 when suspended; session 14: before, 0, and the Jobs the host's
//   controller made from it were never judged); DaemonSet one pod (the node count
//   is the platform's: a tenant whose quota limits pods, cpu or memory may not
//   create one, quota-write.ts). Pods, ReplicaSets and Jobs a counted workload
//   controls are not counted again (its template already is).
// - count/pods (session 14): the pods the same objects ask for, against
//   objectsPerResource: the pods controllers make never pass the gateway, so the
//   count of pod objects (ADR 31) alone let a Deployment of 600 replicas run 600.
// - requests.storage: PVC spec.resources.requests.storage, plus each StatefulSet's
//   volumeClaimTemplates × replicas for claims that do not exist yet (an existing
//   claim with the same name counts once, at its own size).
// Propagation does not multiply: a template counts once, and the engine keeps the
// members within it (core/propagation/trust/member-demand.ts, member-quota-share.ts).
import type { KubeObject } from '../../types.ts';
import { buildPodDemand, type DefaultRequest } from './pod-demand.ts';
import { add, quantityOf, times, ZERO, type Rational } from './quantity-math.ts';
import { fromHeld, isHeld } from '../../propagation/host-hold.ts';
import { podSpecOf } from './missing-requests.ts';

export const QUOTA_RESOURCES = ['requests.cpu', 'requests.memory', 'requests.storage', 'count/pods'] as const;
export type QuotaResource = (typeof QUOTA_RESOURCES)[number];
export type Usage = Record<QuotaResource, Rational>;

/** One stored object of a counted resource, with the resource it was read from. */
export interface QuotaObject {
  group: string;
  resource: string;
  obj: KubeObject;
}

export function emptyUsage(): Usage {
  return { 'requests.cpu': ZERO, 'requests.memory': ZERO, 'requests.storage': ZERO, 'count/pods': ZERO };
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

/** A CronJob starts one Job at a time of its template (none while suspended). */
function cronJobPods(obj: KubeObject): number {
  const spec = specOf(obj);
  if (spec.suspend === true) return 0;
  const job = (spec.jobTemplate as { spec?: unknown } | undefined)?.spec;
  return jobPods({ metadata: {}, spec: job } as KubeObject);
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
  ['batch/cronjobs', tenantView(cronJobPods)],
]);

/** Every group/resource whose objects the quota reads. */
export const COUNTED_RESOURCES: readonly string[] = ['/pods', '/persistentvolumeclaims', ...WORKLOADS.keys()];

/**
 * The upstream collection paths of a counted group/resource, to try in order: CronJobs are batch/v1 from
 * kube 1.21 and only batch/v1beta1 on 1.20 (the oldest host Warren supports); a path answering 404 means the next.
 */
export function collectionPaths(key: string): string[] {
  const [group = '', resource = ''] = key.split('/');
  if (!group) return [`/api/v1/${resource}`];
  const versions = key === 'batch/cronjobs' ? ['v1', 'v1beta1'] : ['v1'];
  return versions.map((v) => `/apis/${group}/${v}/${resource}`);
}

// Owners whose template already counts what they create.
const COUNTED_OWNERS: Record<string, ReadonlySet<string>> = {
  '/pods': new Set(['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController']),
  'apps/replicasets': new Set(['Deployment']),
  'batch/jobs': new Set(['CronJob']),
};

export const keyOf = (group: string, resource: string): string => `${group}/${resource}`;

function countedElsewhere(key: string, obj: KubeObject): boolean {
  const owners = COUNTED_OWNERS[key];
  const controller = obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
  return owners !== undefined && controller !== undefined && owners.has(controller.kind);
}

/** The pods one object of group/resource `key` asks for; undefined for what runs no pods. */
export function podsOf(key: string, obj: KubeObject): number | undefined {
  if (key === '/pods') {
    const phase = (obj.status as { phase?: string } | undefined)?.phase;
    return phase === 'Succeeded' || phase === 'Failed' ? 0 : 1;
  }
  return WORKLOADS.get(key)?.(obj);
}

/** requests.cpu, requests.memory and count/pods of one object (0 for what does not run pods). */
export function buildComputeDemand(item: QuotaObject, defaults?: DefaultRequest): Usage {
  const key = keyOf(item.group, item.resource);
  const usage = emptyUsage();
  if (countedElsewhere(key, item.obj)) return usage;
  const pods = podsOf(key, item.obj);
  if (pods === undefined) return usage;
  const pod = buildPodDemand(podSpecOf(key, item.obj), defaults);
  usage['requests.cpu'] = times(pod.cpu, pods);
  usage['requests.memory'] = times(pod.memory, pods);
  usage['count/pods'] = { num: BigInt(pods), den: 1n };
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
export function buildUsage(items: Iterable<QuotaObject>, defaults?: DefaultRequest): Usage {
  const list = [...items];
  const usage = emptyUsage();
  for (const item of list) {
    const d = buildComputeDemand(item, defaults);
    usage['requests.cpu'] = add(usage['requests.cpu'], d['requests.cpu']);
    usage['requests.memory'] = add(usage['requests.memory'], d['requests.memory']);
    usage['count/pods'] = add(usage['count/pods'], d['count/pods']);
  }
  for (const storage of buildClaims(list).values()) usage['requests.storage'] = add(usage['requests.storage'], storage);
  return usage;
}
