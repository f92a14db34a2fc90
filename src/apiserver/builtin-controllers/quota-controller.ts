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

function hardOf(quota: KubeObject | undefined): unknown {
  return (quota?.spec as { hard?: unknown } | undefined)?.hard ?? null;
}

export function startQuotaController(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const store = registry.store;
  const def = registry.lookup('', 'v1', QUOTAS);
  if (!def) return { stop: () => undefined, idle: () => Promise.resolve() };
  // Which resources each namespace's quotas count, from the registry's quota index (the one admission reads):
  // only a change to a counted resource (or to a quota) costs a recount. Made before this controller's watch,
  // so the store serves the index each event first.
  const index = registry.quotaIndex();
  const initialRevision = store.revision();
  // The quota this controller is writing the status of: its own write's event is no news (issue 18: each
  // status write queued a recount that found nothing to change). Store events arrive inside the write.
  let writing: { namespace: string; name: string } | undefined;

  const recount = (namespace: string): void => {
    for (const quota of store.list(QUOTAS, { namespace }).items) {
      if (quota.metadata.deletionTimestamp) continue;
      const hard = ((quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {});
      const status = { hard, used: quotaUsage(store, quota) };
      if (jsonEqual(quota.status, status)) continue;
      const next: KubeObject = { ...quota, status };
      const name = quota.metadata.name ?? '';
      writing = { namespace, name };
      try {
        registry.update(def, namespace, name, next, { subresource: 'status', fieldManager: 'resourcequota-controller' });
      } finally {
        writing = undefined;
      }
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
  const stopWatch = store.watch(undefined, initialRevision, (event: StoreEvent) => {
    const namespace = event.namespace;
    if (!namespace) return;
    if (event.resource === QUOTAS) {
      if (writing?.namespace === namespace && writing.name === event.name) return;
      // kube's controller follows a quota's spec.hard only: a write of its status alone (someone else's) waits for
      // the next recount a counted object causes, as on a real cluster (checked on 1.20: a status emptied by hand stays).
      if (event.type === 'MODIFIED' && jsonEqual(hardOf(event.previous), hardOf(event.object))) return;
      if (index.hasQuotas(namespace)) loop.enqueue(namespace);
      return;
    }
    if (index.counts(namespace, event.resource)) loop.enqueue(namespace);
  });
  for (const namespace of index.namespaces()) loop.enqueue(namespace);
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
    idle: () => loop.idle(),
  };
}
