// The tenant's quota view (issue 14 item 9): a ResourceQuota `tenant-quota` in
// every tenant namespace, as Capsule users get, that shows the Tenant's limits
// (spec.hard) and what the tenant uses of them (status.used). It informs and
// never enforces: the limits are tenant-wide and the gateway enforces them
// (ADR 10, ADR 31), while a ResourceQuota binds per namespace upstream. So every
// key carries the tenancy.warren.dev/ prefix: no quota evaluator matches it
// (admission ignores it), and kube's quota controller keeps a `used` it cannot
// compute ("we preserve the past usage observation"; the embedded one too).
// A key must be a qualified name (one "/"), hence `count.<resource>[.<group>]`
// where kube writes `count/<resource>[.<group>]`.
// Two writers, each owning its keys of status.used and keeping the other's:
// onboarding the cpu/memory/storage it counts, the gateway the counts it keeps
// live (namespaces and objects per resource, from ADR 31's counters).
import { TENANT_QUOTA_NAME } from './quota-decision.ts';
import { TENANT_LABEL } from '../tenant-id.ts';
import type { KubeObject } from '../../types.ts';

export { TENANT_QUOTA_NAME };
export const QUOTA_VIEW_PREFIX = 'tenancy.warren.dev/';

/** Tenant.spec.quota, as the view reads it. */
export interface TenantQuotaLimits {
  namespaces?: number;
  objectsPerResource?: number;
  cpu?: string | number;
  memory?: string | number;
  storage?: string | number;
}

/** One counted collection the view shows: group and resource, upstream spelling of the counters (ADR 31). */
export interface ViewCount {
  group: string;
  resource: string;
  version: string;
}

/**
 * The collections the view lists under objectsPerResource: the ones kube's own `count/` quota users
 * set most. The limit holds for every resource; the view cannot list every kind a cluster serves.
 */
export const VIEW_COUNTS: readonly ViewCount[] = [
  { group: '', resource: 'configmaps', version: 'v1' },
  { group: '', resource: 'secrets', version: 'v1' },
  { group: '', resource: 'services', version: 'v1' },
  { group: '', resource: 'pods', version: 'v1' },
  { group: '', resource: 'persistentvolumeclaims', version: 'v1' },
  { group: '', resource: 'serviceaccounts', version: 'v1' },
  { group: 'apps', resource: 'deployments', version: 'v1' },
  { group: 'apps', resource: 'statefulsets', version: 'v1' },
  { group: 'batch', resource: 'jobs', version: 'v1' },
];

export const NAMESPACES_KEY = `${QUOTA_VIEW_PREFIX}namespaces`;
const REQUEST_KEYS = [['cpu', 'requests.cpu'], ['memory', 'requests.memory'], ['storage', 'requests.storage']] as const;

/** The counters' key for a collection (object-counts.ts): "group/resource". */
export const counterKeyOf = (c: { group: string; resource: string }): string => `${c.group}/${c.resource}`;

/** The view's key for a counted collection: tenancy.warren.dev/count.deployments.apps. */
export const countKeyOf = (c: { group: string; resource: string }): string =>
  `${QUOTA_VIEW_PREFIX}count.${c.resource}${c.group ? `.${c.group}` : ''}`;

/** The keys the gateway keeps live, by counter key. */
export function liveKeys(limits: TenantQuotaLimits | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (limits?.namespaces !== undefined) out.set(counterKeyOf({ group: '', resource: 'namespaces' }), NAMESPACES_KEY);
  if (limits?.objectsPerResource !== undefined) for (const c of VIEW_COUNTS) out.set(counterKeyOf(c), countKeyOf(c));
  return out;
}

/** The keys onboarding writes: cpu, memory, storage. */
export function requestKeys(limits: TenantQuotaLimits | undefined): string[] {
  return REQUEST_KEYS.filter(([field]) => limits?.[field] !== undefined).map(([, key]) => `${QUOTA_VIEW_PREFIX}${key}`);
}

/** spec.hard of the view; empty when the Tenant sets no limit (then there is no view). */
export function viewHard(limits: TenantQuotaLimits | undefined): Record<string, string> {
  const hard: Record<string, string> = {};
  if (!limits) return hard;
  if (limits.namespaces !== undefined) hard[NAMESPACES_KEY] = String(limits.namespaces);
  if (limits.objectsPerResource !== undefined) for (const c of VIEW_COUNTS) hard[countKeyOf(c)] = String(limits.objectsPerResource);
  for (const [field, key] of REQUEST_KEYS) {
    const limit = limits[field];
    if (limit !== undefined) hard[`${QUOTA_VIEW_PREFIX}${key}`] = String(limit);
  }
  return hard;
}

/**
 * status.used after one writer's pass: its own keys set from `figures` (a key it owns but has no figure
 * for keeps its value), the other writer's kept, and keys no longer in `hard` dropped (kube masks used by hard).
 */
export function mergeUsed(current: Record<string, string> | undefined, owned: readonly string[], figures: Record<string, string>, hard: Record<string, string>): Record<string, string> {
  const used: Record<string, string> = {};
  for (const key of Object.keys(hard).sort()) {
    const figure = owned.includes(key) ? figures[key] : undefined;
    const value = figure ?? current?.[key];
    if (value !== undefined) used[key] = value;
  }
  return used;
}

/** Same keys, same values (the order of keys aside). */
export function sameFigures(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => a?.[k] === b?.[k]);
}

/** The view as created in one upstream namespace, without status: kube clears a quota's status on create, and the writers fill it. */
export function quotaViewObject(id: string, upstreamNamespace: string, hard: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: TENANT_QUOTA_NAME, namespace: upstreamNamespace, labels: { [TENANT_LABEL]: id } }, spec: { hard } };
}
