// ResourceQuota status, as kube-controller-manager's quota controller keeps it:
// status.hard mirrors spec.hard and status.used is recounted whenever an
// object a quota may count changes in its namespace (or the quota itself).
// Without it, status.used stayed what it was when the quota was created.
import { ApiError } from '../../core/api-error.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { KubeObject } from '../../core/types.ts';
import type { Registry } from '../registry/registry.ts';
import { quotaUsage } from '../registry/resource-quota.ts';
import type { StoreEvent } from '../store/store.ts';
import { startWorkLoop } from './event-loop.ts';

const QUOTAS = 'resourcequotas';

export function startQuotaController(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const store = registry.store;
  const def = registry.lookup('', 'v1', QUOTAS);
  if (!def) return { stop: () => undefined, idle: () => Promise.resolve() };
  // Namespaces holding at least one quota: only their changes cost a recount.
  const withQuotas = new Map<string, number>();
  const initial = store.list(QUOTAS);
  for (const quota of initial.items) withQuotas.set(quota.metadata.namespace ?? '', (withQuotas.get(quota.metadata.namespace ?? '') ?? 0) + 1);

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
      const n = (withQuotas.get(namespace) ?? 0) + (event.type === 'ADDED' ? 1 : event.type === 'DELETED' ? -1 : 0);
      if (n <= 0) withQuotas.delete(namespace);
      else withQuotas.set(namespace, n);
    }
    if (withQuotas.has(namespace)) loop.enqueue(namespace);
  });
  for (const namespace of withQuotas.keys()) loop.enqueue(namespace);
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
    idle: () => loop.idle(),
  };
}
