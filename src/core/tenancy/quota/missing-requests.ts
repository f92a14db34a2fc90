// A quota on cpu or memory is only a bound if every pod asks for what it uses.
// kube's ResourceQuota admission refuses a pod with a container (or init
// container) that requests nothing of a resource its quota limits:
//   pods "x" is forbidden: failed quota: <quota>: must specify requests.cpu
// (kube 1.20 pkg/quota/v1/evaluator/core/pods.go, Constraints: "if we quota cpu
// or memory, then each container must make an explicit request"). A request
// defaulted from a limit counts as one (kube defaults requests to limits first).
// Warren judges the pod template of every workload the same way, at the
// workload's write: the pods a host or member controller makes from it never
// pass the gateway, so their own create is too late to refuse (session 13's red
// team: 600 pods with no requests ran under a cpu quota of 8).
import type { KubeObject } from '../../types.ts';

export type ComputeResource = 'cpu' | 'memory';

export interface MissingRequest {
  container: string;
  resource: ComputeResource;
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined);

/** The spec of the pods an object of this group/resource runs (a CronJob's through its Job template); undefined for others. */
export function podSpecOf(key: string, obj: KubeObject): unknown {
  const spec = rec(obj.spec);
  if (key === '/pods') return spec;
  if (key === 'batch/cronjobs') return rec(rec(rec(spec?.jobTemplate)?.spec)?.template)?.spec;
  return rec(spec?.template)?.spec;
}

const asks = (container: Rec, resource: ComputeResource): boolean => {
  const resources = rec(container.resources);
  return rec(resources?.requests)?.[resource] !== undefined || rec(resources?.limits)?.[resource] !== undefined;
};

/** Each container and init container that requests nothing of a required resource, in spec order. */
export function buildMissingRequests(podSpec: unknown, required: readonly ComputeResource[]): MissingRequest[] {
  const spec = rec(podSpec);
  if (!spec || required.length === 0) return [];
  const out: MissingRequest[] = [];
  for (const field of ['initContainers', 'containers']) {
    const list = spec[field];
    for (const c of Array.isArray(list) ? list : []) {
      const container = rec(c) ?? {};
      const name = typeof container.name === 'string' ? container.name : '';
      for (const resource of required) if (!asks(container, resource)) out.push({ container: name, resource });
    }
  }
  return out;
}

/** Every missing request of `next` was already missing in `stored` (an object older than the quota, edited or scaled down). */
export function missingBefore(next: readonly MissingRequest[], stored: readonly MissingRequest[]): boolean {
  return next.every((m) => stored.some((s) => s.container === m.container && s.resource === m.resource));
}

/** kube's "must specify" detail, with the containers named: must specify requests.cpu (container "web": requests.cpu). */
export function describeMissing(missing: readonly MissingRequest[]): string {
  const resources = [...new Set(missing.map((m) => `requests.${m.resource}`))].sort();
  const byContainer = new Map<string, string[]>();
  for (const m of missing) byContainer.set(m.container, [...(byContainer.get(m.container) ?? []), `requests.${m.resource}`]);
  const named = [...byContainer].map(([name, list]) => `container "${name}": ${list.join(',')}`).join('; ');
  return `must specify ${resources.join(',')} (${named})`;
}
