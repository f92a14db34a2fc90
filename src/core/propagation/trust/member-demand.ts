// A member's copy may not ask for more than its share of the template. The
// tenant's quota (ADR 10) counts the template as the tenant wrote it, once, but
// a member runs the copy after the tenant's OverridePolicies, which no quota
// saw: a plaintext override of `/spec/replicas` to 50,000 (or of a container's
// requests, a claim's storage, a CronJob's job parallelism) made a shared member
// run what the quota refuses, for every tenant there to pay (seen on member2 of
// `warren up`: 600 pods from a template of 1). Pods count too, not only cpu and
// memory: a pod without requests asks for none, and 50,000 of them still fill a member.
// The share is what scheduling gave the cluster: Divided, its replicas; else the
// whole template (how many clusters may each run it: member-quota-share.ts).
// Session 14 (q1), three more ways an override raised a copy:
// - removing a container's request (a copy asking for less cpu, but for none:
//   its pods are bounded by nothing); kube's quota would refuse such a pod;
// - a CronJob's schedule or concurrencyPolicy (more Jobs, or Jobs at once, from
//   the same template), or lifting its suspension;
// - raising a Divided share up to the whole template on one cluster (the copy
//   was compared with the template, not with the cluster's share).
import type { KubeObject } from '../../types.ts';
import { buildUsage, keyOf, podsOf, QUOTA_RESOURCES, type QuotaObject } from '../../tenancy/quota/object-demand.ts';
import { buildMissingRequests, describeMissing, missingBefore, podSpecOf } from '../../tenancy/quota/missing-requests.ts';
import { compare, formatQuantity } from '../../tenancy/quota/quantity-math.ts';
import type { MemberRbac } from './member-rbac.ts';

export interface Row { group: string; resource: string }

const counted = (row: Row, obj: KubeObject): QuotaObject => ({ group: row.group, resource: row.resource, obj });
const specField = (obj: KubeObject, field: string): unknown => (obj.spec as Record<string, unknown> | undefined)?.[field];

/** A CronJob copy that starts more Jobs than its template: another schedule, Jobs at once, or no longer suspended. */
function cronJobAbove(template: KubeObject, copy: KubeObject): string | undefined {
  for (const field of ['schedule', 'concurrencyPolicy'] as const) {
    const [t, c] = [specField(template, field), specField(copy, field)];
    if (JSON.stringify(t) !== JSON.stringify(c)) return `${field} ${JSON.stringify(c ?? null)} where the template has ${JSON.stringify(t ?? null)}`;
  }
  if (specField(template, 'suspend') === true && specField(copy, 'suspend') !== true) return 'not suspended where the template is';
  return undefined;
}

/** The first quantity the copy asks more of than the template (its share), in words; undefined when none. */
export function demandAbove(row: Row, template: KubeObject, copy: KubeObject): string | undefined {
  const key = keyOf(row.group, row.resource);
  const [t, c] = [counted(row, template), counted(row, copy)];
  const [podsT, podsC] = [podsOf(key, template) ?? 0, podsOf(key, copy) ?? 0];
  if (podsC > podsT) return `${podsC} pods where the template asks for ${podsT}`;
  if (key === 'batch/cronjobs') {
    const more = cronJobAbove(template, copy);
    if (more) return more;
  }
  const missing = buildMissingRequests(podSpecOf(key, copy), ['cpu', 'memory']);
  if (!missingBefore(missing, buildMissingRequests(podSpecOf(key, template), ['cpu', 'memory']))) {
    return `no request where the template has one: ${describeMissing(missing).replace(/^must specify /, '')}`;
  }
  const [usageT, usageC] = [buildUsage([t]), buildUsage([c])];
  for (const resource of QUOTA_RESOURCES) {
    if (compare(usageC[resource], usageT[resource]) > 0) return `${resource}=${formatQuantity(usageC[resource])} where the template asks for ${formatQuantity(usageT[resource])}`;
  }
  return undefined;
}

export function refuseDemandAbove(row: Row, template: KubeObject, copy: MemberRbac): MemberRbac {
  if (!copy.ok) return copy;
  const above = demandAbove(row, template, copy.obj);
  return above ? { ok: false, reason: `the copy for this cluster asks for more than its template (${above}): overrides may lower what a member runs, not raise it past what the tenant's quota counted` } : copy;
}
