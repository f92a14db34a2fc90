// ResourceQuota, as kube-apiserver's quota plugin and kube-controller-manager's
// quota controller count it, for the common keys: object counts (`pods`,
// `services`, `configmaps`, `secrets`, `persistentvolumeclaims`,
// `replicationcontrollers`, `resourcequotas` and `count/<resource>[.<group>]`),
// `services.nodeports` and `services.loadbalancers`, pod compute (`requests.<r>`,
// `limits.<r>`, bare `cpu`/`memory`/`ephemeral-storage` as requests; extended
// resources as `requests.<name>`) and `requests.storage` of PVCs. Quota scopes
// (Terminating, NotTerminating, BestEffort, NotBestEffort) narrow a quota to the
// pods they match. Pods that finished (Succeeded, Failed) or are being deleted
// no longer count, as in kube. A create that would go over a limit of the
// quota's status.hard is refused with kube's message; nothing is stored.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Store } from '../store/store.ts';
import { quantityNumber } from '../../core/quantity.ts';

const COUNT_KEYS: Record<string, string> = {
  pods: 'pods', services: 'services', configmaps: 'configmaps', secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas',
};

/**
 * Events are ignored by kube's quota system, admission and controller alike (install.DefaultIgnoredResources,
 * "events haven't been quota-ed before"): an Event create is never refused, and count/events or
 * count/events.events.k8s.io never show in status.used. (Kube 1.20 ignored core events only: there
 * count/events.events.k8s.io counted every stored Event; this server answers as its own build, 1.33.)
 */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

function ignored(def: Pick<ResourceDef, 'group' | 'resource'>): boolean {
  return IGNORED.has(`${def.group}/${def.resource}`);
}

/** Storage keys whose objects a quota can count (count/<resource> keys may name any other). */
export const QUOTA_COUNTED = new Set([...Object.values(COUNT_KEYS)]);

interface Container { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }
interface PodSpec { containers?: Container[]; initContainers?: Container[]; activeDeadlineSeconds?: number }

const COMPUTE = /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$|^requests\.(?!storage$)[a-z0-9.-]+\/[a-z0-9.-]+$/;

function isComputeKey(key: string): boolean {
  return COMPUTE.test(key);
}

function podUsage(pod: KubeObject, key: string): number {
  const spec = (pod.spec as PodSpec | undefined) ?? {};
  const dot = key.indexOf('.');
  const [kind, resource] = key.startsWith('requests.') || key.startsWith('limits.') ? [key.slice(0, dot), key.slice(dot + 1)] : ['requests', key];
  const valueOf = (c: Container): number => {
    const text = kind === 'limits' ? c.resources?.limits?.[resource] : c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource];
    return text ? quantityNumber(text) ?? 0 : 0;
  };
  // kube: the larger of the sum over containers and any single init container.
  const sum = (spec.containers ?? []).reduce((total, c) => total + valueOf(c), 0);
  const init = (spec.initContainers ?? []).reduce((max, c) => Math.max(max, valueOf(c)), 0);
  return Math.max(sum, init);
}

function isBestEffort(pod: KubeObject): boolean {
  const spec = (pod.spec as PodSpec | undefined) ?? {};
  return [...(spec.containers ?? []), ...(spec.initContainers ?? [])].every((c) =>
    Object.keys(c.resources?.requests ?? {}).length === 0 && Object.keys(c.resources?.limits ?? {}).length === 0);
}

function podMatchesScope(pod: KubeObject, scope: string): boolean {
  const deadline = (pod.spec as PodSpec | undefined)?.activeDeadlineSeconds;
  switch (scope) {
    case 'Terminating': return typeof deadline === 'number' && deadline >= 0;
    case 'NotTerminating': return !(typeof deadline === 'number' && deadline >= 0);
    case 'BestEffort': return isBestEffort(pod);
    case 'NotBestEffort': return !isBestEffort(pod);
    default: return true;
  }
}

function scopesOf(quota: KubeObject): string[] {
  const spec = (quota.spec as { scopes?: string[]; scopeSelector?: { matchExpressions?: Array<{ scopeName?: string; operator?: string }> } } | undefined) ?? {};
  const fromSelector = (spec.scopeSelector?.matchExpressions ?? []).filter((e) => e.operator === 'Exists' && e.scopeName).map((e) => e.scopeName as string);
  return [...(spec.scopes ?? []), ...fromSelector];
}

/** Does this object count against this quota at all (scoped quotas count pods only, those their scopes match)? */
function inScope(def: Pick<ResourceDef, 'group' | 'resource'>, obj: KubeObject, scopes: string[]): boolean {
  if (scopes.length === 0) return true;
  return def.group === '' && def.resource === 'pods' && scopes.every((s) => podMatchesScope(obj, s));
}

/** A pod that finished or is going away no longer uses its quota. */
function counts(def: Pick<ResourceDef, 'group' | 'resource'>, obj: KubeObject): boolean {
  if (def.group !== '' || def.resource !== 'pods') return true;
  if (obj.metadata.deletionTimestamp) return false;
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** What one object adds to a quota key, or undefined when the key does not concern it. */
function usageOf(def: Pick<ResourceDef, 'group' | 'resource'>, obj: KubeObject, key: string): number | undefined {
  if (ignored(def)) return undefined;
  const qualified = def.group ? `${def.resource}.${def.group}` : def.resource;
  if (key === `count/${qualified}` || (def.group === '' && COUNT_KEYS[def.resource] === key)) return 1;
  if (def.group === '' && def.resource === 'pods' && isComputeKey(key)) return podUsage(obj, key);
  if (def.group === '' && def.resource === 'services') {
    const spec = (obj.spec as { type?: string; ports?: Array<{ nodePort?: number }> } | undefined) ?? {};
    if (key === 'services.loadbalancers') return spec.type === 'LoadBalancer' ? 1 : 0;
    if (key === 'services.nodeports') return spec.type === 'NodePort' || spec.type === 'LoadBalancer' ? (spec.ports ?? []).length : 0;
  }
  if (def.group === '' && def.resource === 'persistentvolumeclaims' && key === 'requests.storage') {
    const storage = ((obj.spec as { resources?: { requests?: { storage?: string } } } | undefined)?.resources?.requests?.storage);
    return storage ? quantityNumber(storage) ?? 0 : 0;
  }
  return undefined;
}

function format(key: string, value: number): string {
  if (key.endsWith('cpu')) return Number.isInteger(value) ? String(value) : `${Math.round(value * 1000)}m`;
  return String(value);
}

/**
 * Throws a 403 when creating `obj` would exceed a ResourceQuota of its namespace. The quotas come from
 * `index` (quota-index.ts) when it is up to date with the store, else from a list.
 *
 * As kube's quota admission, a quota enforces its status.hard, the figures its controller has taken from
 * spec.hard, not spec.hard itself (checked on real 1.20): a new quota enforces nothing until the controller
 * has filled its status, and a key of status.hard that concerns the object but has no status.used figure
 * is a 403 ("status unknown"). The usage compared is the objects counted now (kube's admission adds to
 * status.used instead; the two differ only while status.used is stale: docs/compatibility.md).
 */
export function admitAgainstQuotas(store: Store, storageKey: (def: ResourceDef) => string, def: ResourceDef, obj: KubeObject, namespace: string, index?: { quotasIn(namespace: string): KubeObject[] | undefined }): void {
  if (!def.namespaced || !namespace) return;
  const quotas = index?.quotasIn(namespace) ?? store.list('resourcequotas', { namespace }).items;
  if (quotas.length === 0) return;
  // Listed only once a key concerns the object: a quota that counts nothing of this kind (Warren's
  // tenant-quota view counts none) must not make every create list and parse its whole collection
  // (issue 18: a create through the gateway cost the host 6 ms against 0.8 ms direct, growing with the namespace).
  let listed: KubeObject[] | undefined;
  const existing = (): KubeObject[] => (listed ??= store.list(storageKey(def), { namespace }).items.filter((o) => counts(def, o)));
  const what = def.group ? `${def.resource}.${def.group}` : def.resource;
  const refuse = (why: string): ApiError => new ApiError('Forbidden', `${what} "${obj.metadata.name ?? ''}" is forbidden: ${why}`, {
    name: obj.metadata.name, kind: def.resource, ...(def.group ? { group: def.group } : {}),
  });
  for (const quota of quotas) {
    const scopes = scopesOf(quota);
    if (!inScope(def, obj, scopes)) continue;
    const status = (quota.status as { hard?: Record<string, string>; used?: Record<string, string> } | undefined) ?? {};
    const hard = status.hard ?? {};
    const concerned = Object.keys(hard).filter((key) => usageOf(def, obj, key) !== undefined);
    const unknown = concerned.filter((key) => status.used?.[key] === undefined);
    if (unknown.length > 0) throw refuse(`status unknown for quota: ${quota.metadata.name ?? ''}, resources: ${concerned.sort().join(',')}`);
    for (const key of concerned) {
      const requested = usageOf(def, obj, key) ?? 0;
      if (requested === 0) continue;
      const limitText = hard[key] ?? '0';
      const limit = quantityNumber(limitText) ?? 0;
      const used = existing().filter((o) => inScope(def, o, scopes)).reduce((sum, o) => sum + (usageOf(def, o, key) ?? 0), 0);
      if (used + requested > limit) {
        throw refuse(`exceeded quota: ${quota.metadata.name ?? ''}, requested: ${key}=${format(key, requested)}, used: ${key}=${format(key, used)}, limited: ${key}=${limitText}`);
      }
    }
  }
}

/** The storage key a quota key counts, and its group/resource. */
function countedResource(key: string): { storage: string; group: string; resource: string } | undefined {
  const count = /^count\/([^.]+)(?:\.(.+))?$/.exec(key);
  if (count && ignored({ group: count[2] ?? '', resource: count[1] ?? '' })) return undefined;
  if (count) return { storage: count[2] ? `${count[1]}.${count[2]}` : count[1] ?? '', group: count[2] ?? '', resource: count[1] ?? '' };
  const plain = COUNT_KEYS[key];
  if (plain) return { storage: plain, group: '', resource: plain };
  if (key.startsWith('services.')) return { storage: 'services', group: '', resource: 'services' };
  if (key === 'requests.storage') return { storage: 'persistentvolumeclaims', group: '', resource: 'persistentvolumeclaims' };
  if (isComputeKey(key)) return { storage: 'pods', group: '', resource: 'pods' };
  return undefined;
}

/**
 * The storage keys whose objects a quota counts (its hard keys that name something countable). A change to
 * any other resource cannot move its status.used: Warren's tenant-quota view, whose keys are all
 * tenancy.warren.dev/…, counts nothing, so its namespaces' writes need no recount (issue 18).
 */
export function countedStorageKeys(quota: KubeObject): Set<string> {
  const hard = ((quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {});
  const keys = new Set<string>();
  for (const key of Object.keys(hard)) {
    const target = countedResource(key);
    if (target) keys.add(target.storage);
  }
  return keys;
}

/**
 * status.used of a quota: every hard key counted (0 when nothing counts). A key nothing counts keeps
 * the value already in status.used, if any, as kube's quota controller does ("we preserve the past
 * usage observation"): someone else may keep it (Warren's tenant-quota view, quota-view.ts).
 */
export function quotaUsage(store: Store, quota: KubeObject): Record<string, string> {
  const namespace = quota.metadata.namespace ?? '';
  const hard = ((quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {});
  const previous = ((quota.status as { used?: Record<string, string> } | undefined)?.used ?? {});
  const scopes = scopesOf(quota);
  const used: Record<string, string> = {};
  for (const key of Object.keys(hard)) {
    const target = countedResource(key);
    if (!target) {
      if (previous[key] !== undefined) used[key] = previous[key];
      continue;
    }
    const def = { group: target.group, resource: target.resource };
    const objects = store.list(target.storage, { namespace }).items.filter((o) => counts(def, o) && inScope(def, o, scopes));
    used[key] = format(key, objects.reduce((sum, o) => sum + (usageOf(def, o, key) ?? 0), 0));
  }
  return used;
}
