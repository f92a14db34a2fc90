// ResourceQuota status, as kube-controller-manager's quota controller keeps it:
// status.hard mirrors spec.hard and status.used is recounted whenever an
// object a quota may count changes in its namespace (or the quota itself).
// Without it, status.used stayed what it was when the quota was created.
import { ApiError } from '../../core/api-error.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { KubeObject } from '../../core/types.ts';
import type { Registry } from '../registry/registry.ts';
import { countedStorageKeys, quotaUsage } from '../registry/resource-quota.ts';
import type { StoreEvent } from '../store/store.ts';
import { startWorkLoop } from './event-loop.ts';

const QUOTAS = 'resourcequotas';

export function startQuotaController(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const store = registry.store;
  const def = registry.lookup('', 'v1', QUOTAS);
  if (!def) return { stop: () => undefined, idle: () => Promise.resolve() };
  // Per namespace, its quotas by name and the storage keys each counts: only a change to a counted resource
  // (or to a quota) costs a recount. Recounting on every write in a quota's namespace listed and compared its
  // quotas per write even when no quota counted that resource (every write in a Warren tenant's namespace).
  const counted = new Map<string, Map<string, Set<string>>>();
  const track = (quota: KubeObject, present: boolean): void => {
    const namespace = quota.metadata.namespace ?? '';
    const quotas = counted.get(namespace) ?? new Map<string, Set<string>>();
    if (present) quotas.set(quota.metadata.name ?? '', countedStorageKeys(quota));
    else quotas.delete(quota.metadata.name ?? '');
    if (quotas.size > 0) counted.set(namespace, quotas);
    else counted.delete(namespace);
  };
  const countedIn = (namespace: string, resource: string): boolean => {
    for (const keys of counted.get(namespace)?.values() ?? []) if (keys.has(resource)) return true;
    return false;
  };
  const initial = store.list(QUOTAS);
  for (const quota of initial.items) track(quota, true);

  const recount = (namespace: string): void => {
    for (const quota of store.list(QUOTAS, { namespace }).items) {
      if (quota.metadata.deletionTimestamp) continue;
      const hard = ((quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {});
      const status = { hard, used: quotaUsage(store, quota) };
      if (jsonEqual(quota.status, status)) continue;
      const next: KubeObject = { ...quota, status };
      registry.update(def, namespace, quota.metadata.name ?? '', next, { subresource: 'status', fieldManager: 'resourcequota-controller' });
    }
  };
  const loop = startWorkLoop<string>(recount, (err, namespace) => {
    if (err instanceof ApiError && err.reason === 'Conflict') {
      setTimeout(() => loop.enqueue(namespace), 50);
      return;
    }
    if (err instanceof ApiError && err.reason === 'NotFound') return;
    log(`quota controller: ${namespace}: ${(err as Error).message}`);
  });
  const stopWatch = store.watch(undefined, Math.max(store.revision(), initial.revision), (event: StoreEvent) => {
    const namespace = event.namespace;
    if (!namespace) return;
    if (event.resource === QUOTAS) {
      track(event.object, event.type !== 'DELETED');
      if (counted.has(namespace)) loop.enqueue(namespace);
      return;
    }
    if (countedIn(namespace, event.resource)) loop.enqueue(namespace);
  });
  for (const namespace of counted.keys()) loop.enqueue(namespace);
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
    idle: () => loop.idle(),
  };
}
