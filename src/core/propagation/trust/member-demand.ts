// A member's copy may not ask for more than its template does. The tenant's
// quota (ADR 10) counts the template as the tenant wrote it, once, whatever the
// members ("propagation does not multiply"), but a member runs the copy after
// the tenant's OverridePolicies, which no quota saw: a plaintext override of
// `/spec/replicas` to 50,000 (or of a container's requests, a claim's storage,
// a CronJob's job parallelism) made a shared member run what the quota refuses,
// for every tenant there to pay (seen on member2 of `warren up`: 600 pods from
// a template of 1). Pods count too, not only cpu and memory: a pod without
// requests asks for none, and 50,000 of them still fill a member.
// Divided scheduling gives a member a share of the replicas (never more) and
// Duplicated the template's own, so only an override can raise a copy above its
// template. Judged per quantity; a copy asking for less passes.
import type { KubeObject } from '../../types.ts';
import { buildUsage, QUOTA_RESOURCES, WORKLOADS, type QuotaObject, keyOf } from '../../tenancy/quota/object-demand.ts';
import { compare, formatQuantity } from '../../tenancy/quota/quantity-math.ts';
import type { MemberRbac } from './member-rbac.ts';

interface Row { group: string; resource: string }

/** A CronJob asks for what its Jobs will: judged as one of them. */
function asCounted(row: Row, obj: KubeObject): QuotaObject {
  if (row.group === 'batch' && row.resource === 'cronjobs') {
    const job = (obj.spec as { jobTemplate?: { spec?: unknown } } | undefined)?.jobTemplate?.spec;
    return { group: 'batch', resource: 'jobs', obj: { metadata: {}, spec: job } as KubeObject };
  }
  return { group: row.group, resource: row.resource, obj };
}

function podsOf(item: QuotaObject): number {
  const replicas = WORKLOADS.get(keyOf(item.group, item.resource));
  return replicas ? replicas(item.obj) : 0;
}

/** The first quantity the copy asks more of than the template, in words; undefined when none. */
export function demandAbove(row: Row, template: KubeObject, copy: KubeObject): string | undefined {
  const t = asCounted(row, template);
  const c = asCounted(row, copy);
  const [podsT, podsC] = [podsOf(t), podsOf(c)];
  if (podsC > podsT) return `${podsC} pods where the template asks for ${podsT}`;
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
