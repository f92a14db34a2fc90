// The tenant-wide quota's verdict on one write: usage before and after it,
// against the Tenant's limits. As kube's ResourceQuota admission does, only a
// resource the write increases can refuse it (scaling down, or editing
// something else, while over quota still passes), and the message lists just
// the resources that would go over, sorted, in kube's words:
//   deployments.apps "web" is forbidden: exceeded quota: tenant-quota,
//   requested: requests.cpu=2, used: requests.cpu=15, limited: requests.cpu=16
// ("requested" is what this write adds; "used" what the tenant had before it).
import { ApiError } from '../../api-error.ts';
import { QUOTA_RESOURCES, type QuotaResource, type Usage } from './object-demand.ts';
import { add, compare, formatOf, formatQuantity, quantityOf, type Rational } from './quantity-math.ts';

export const TENANT_QUOTA_NAME = 'tenant-quota';

/** Tenant.spec.quota's cpu, memory and storage, as written (quantity strings). */
export interface ResourceLimits {
  cpu?: string | number;
  memory?: string | number;
  storage?: string | number;
}

const LIMIT_FIELD: Record<QuotaResource, keyof ResourceLimits> = {
  'requests.cpu': 'cpu',
  'requests.memory': 'memory',
  'requests.storage': 'storage',
};

export function hasResourceLimits(limits: ResourceLimits | undefined): limits is ResourceLimits {
  return limits !== undefined && (limits.cpu !== undefined || limits.memory !== undefined || limits.storage !== undefined);
}

/** The object being written, for the message: kube names it "<resource>[.<group>] "<name>"". */
export interface WriteSubject {
  group: string;
  resource: string;
  name?: string;
}

const negate = (q: Rational): Rational => ({ num: -q.num, den: q.den });

/** undefined when the write may proceed, else the 403 Forbidden to answer with. */
export function buildQuotaDecision(limits: ResourceLimits, before: Usage, after: Usage, subject: WriteSubject): ApiError | undefined {
  const exceeded: Array<{ resource: QuotaResource; delta: Rational; limitText: string }> = [];
  for (const resource of QUOTA_RESOURCES) {
    const written = limits[LIMIT_FIELD[resource]];
    const limit = quantityOf(written);
    if (written === undefined || !limit) continue;
    const limitText = String(written);
    const delta = add(after[resource], negate(before[resource]));
    if (compare(delta, { num: 0n, den: 1n }) > 0 && compare(after[resource], limit) > 0) exceeded.push({ resource, delta, limitText });
  }
  if (exceeded.length === 0) return undefined;
  // Quantities print in the format the limit was written in (8Gi → binary), as kube keeps the quota's format.
  const list = (pick: (e: (typeof exceeded)[number]) => string): string => exceeded.map((e) => `${e.resource}=${pick(e)}`).join(',');
  const requested = list((e) => formatQuantity(e.delta, formatOf(e.limitText)));
  const used = list((e) => formatQuantity(before[e.resource], formatOf(e.limitText)));
  const limited = list((e) => e.limitText);
  const what = subject.group ? `${subject.resource}.${subject.group}` : subject.resource;
  const prefix = subject.name ? `${what} "${subject.name}"` : what;
  return new ApiError('Forbidden', `${prefix} is forbidden: exceeded quota: ${TENANT_QUOTA_NAME}, requested: ${requested}, used: ${used}, limited: ${limited}`, {
    ...(subject.name ? { name: subject.name } : {}),
    kind: subject.resource,
    ...(subject.group ? { group: subject.group } : {}),
  });
}

/** status.usage's cpu, memory and storage, printed like the limits they are read against. */
export function formatUsage(usage: Usage, limits: ResourceLimits = {}): { cpu: string; memory: string; storage: string } {
  return {
    cpu: formatQuantity(usage['requests.cpu'], 'DecimalSI'),
    memory: formatQuantity(usage['requests.memory'], limits.memory === undefined ? 'BinarySI' : formatOf(limits.memory)),
    storage: formatQuantity(usage['requests.storage'], limits.storage === undefined ? 'BinarySI' : formatOf(limits.storage)),
  };
}
