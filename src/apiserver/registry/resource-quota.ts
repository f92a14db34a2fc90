// ResourceQuota admission, as kube-apiserver's quota plugin does it for the
// common keys: object counts (`pods`, `services`, `configmaps`, `secrets`,
// `persistentvolumeclaims`, `replicationcontrollers`, `resourcequotas` and
// `count/<resource>[.<group>]`), pod compute (`requests.cpu`, `requests.memory`,
// `limits.cpu`, `limits.memory`, and bare `cpu`/`memory` as requests) and
// `requests.storage` of PVCs. A create that would go over a hard limit is
// refused with kube's message; nothing is stored.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Store } from '../store/store.ts';
import { parseQuantity } from '../validation/quantity.ts';

const COUNT_KEYS: Record<string, string> = {
  pods: 'pods', services: 'services', configmaps: 'configmaps', secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas',
};

interface Container { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }

function podUsage(pod: KubeObject, key: string): number {
  const containers = ((pod.spec as { containers?: Container[] } | undefined)?.containers ?? []);
  const [kind, resource] = key.includes('.') ? key.split('.') as [string, string] : ['requests', key];
  let total = 0;
  for (const c of containers) {
    const value = kind === 'limits' ? c.resources?.limits?.[resource] : c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource];
    total += value ? parseQuantity(value) ?? 0 : 0;
  }
  return total;
}

/** What one object adds to a quota key, or undefined when the key does not concern it. */
function usageOf(def: ResourceDef, obj: KubeObject, key: string): number | undefined {
  const qualified = def.group ? `${def.resource}.${def.group}` : def.resource;
  if (key === `count/${qualified}` || (def.group === '' && COUNT_KEYS[def.resource] === key)) return 1;
  if (def.group === '' && def.resource === 'pods' && /^(requests\.|limits\.)?(cpu|memory)$/.test(key)) return podUsage(obj, key);
  if (def.group === '' && def.resource === 'persistentvolumeclaims' && key === 'requests.storage') {
    const storage = ((obj.spec as { resources?: { requests?: { storage?: string } } } | undefined)?.resources?.requests?.storage);
    return storage ? parseQuantity(storage) ?? 0 : 0;
  }
  return undefined;
}

function format(key: string, value: number): string {
  if (key.endsWith('cpu')) return Number.isInteger(value) ? String(value) : `${Math.round(value * 1000)}m`;
  return String(value);
}

/** Throws a 403 when creating `obj` would exceed a ResourceQuota of its namespace. */
export function admitAgainstQuotas(store: Store, storageKey: (def: ResourceDef) => string, def: ResourceDef, obj: KubeObject, namespace: string): void {
  if (!def.namespaced || !namespace) return;
  const quotas = store.list('resourcequotas', { namespace }).items;
  if (quotas.length === 0) return;
  const existing = store.list(storageKey(def), { namespace }).items.filter((o) => !o.metadata.deletionTimestamp);
  for (const quota of quotas) {
    const hard = ((quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {});
    for (const [key, limitText] of Object.entries(hard)) {
      const requested = usageOf(def, obj, key);
      if (requested === undefined) continue;
      const limit = parseQuantity(limitText) ?? 0;
      const used = existing.reduce((sum, o) => sum + (usageOf(def, o, key) ?? 0), 0);
      if (used + requested > limit) {
        const what = def.group ? `${def.resource}.${def.group}` : def.resource;
        throw new ApiError('Forbidden', `${what} "${obj.metadata.name ?? ''}" is forbidden: exceeded quota: ${quota.metadata.name ?? ''}, requested: ${key}=${format(key, requested)}, used: ${key}=${format(key, used)}, limited: ${key}=${limitText}`, {
          name: obj.metadata.name, kind: def.resource, ...(def.group ? { group: def.group } : {}),
        });
      }
    }
  }
}

/** status.used of a quota over these keys (object counts only; compute keys as the sum of pod requests). */
export function quotaUsage(store: Store, namespace: string, keys: string[]): Record<string, string> {
  const used: Record<string, string> = {};
  for (const key of keys) {
    const count = /^count\/([^.]+)(?:\.(.+))?$/.exec(key);
    const resource = count ? (count[2] ? `${count[1]}.${count[2]}` : count[1] ?? '') : COUNT_KEYS[key];
    if (resource) {
      used[key] = String(store.list(resource, { namespace }).items.length);
      continue;
    }
    if (/^(requests\.|limits\.)?(cpu|memory)$/.test(key)) {
      const total = store.list('pods', { namespace }).items.reduce((sum, pod) => sum + podUsage(pod, key), 0);
      used[key] = format(key, total);
    }
  }
  return used;
}
