// Namespace termination, as kube-controller-manager's namespace controller does:
// once a namespace is marked for deletion, delete everything in it, wait until
// nothing is left (objects with finalizers linger until those are removed), then
// drop the "kubernetes" spec finalizer so the namespace itself goes.
import type { KubeObject } from '../../core/types.ts';
import type { Registry } from '../registry/registry.ts';
import { startWorkLoop } from './event-loop.ts';

const RETRY_MS = 200;

export function startNamespaceController(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const timers = new Set<NodeJS.Timeout>();
  const retryLater = (name: string): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      loop.enqueue(name);
    }, RETRY_MS);
    timers.add(timer);
  };

  const terminate = (name: string): void => {
    const ns = registry.store.get({ resource: 'namespaces', namespace: '', name });
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const resource of registry.catalog.storageKeys()) {
      const def = registry.catalog.byStorageKey(resource);
      if (!def?.namespaced) continue;
      for (const obj of registry.store.list(resource, { namespace: name }).items) {
        remaining++;
        if (obj.metadata.deletionTimestamp) continue;
        try {
          registry.delete(def, name, obj.metadata.name ?? '', { propagationPolicy: 'Background' });
        } catch {
          // Gone meanwhile, or refused: the next pass sees the truth.
        }
      }
    }
    if (remaining > 0) {
      retryLater(name);
      return;
    }
    const specFinalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).filter((f) => f !== 'kubernetes');
    registry.finalizeNamespace({ ...ns, spec: { ...((ns.spec as object | undefined) ?? {}), finalizers: specFinalizers } } as KubeObject);
  };

  const loop = startWorkLoop<string>(terminate, (err, name) => {
    log(`namespace controller: ${name}: ${(err as Error).message}`);
    retryLater(name);
  });
  for (const ns of registry.store.list('namespaces').items) if (ns.metadata.deletionTimestamp) loop.enqueue(ns.metadata.name ?? '');
  const stopWatch = registry.store.watch('namespaces', registry.store.revision(), (event) => {
    if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) loop.enqueue(event.name);
  });
  return {
    stop() {
      stopWatch();
      loop.stop();
      for (const timer of timers) clearTimeout(timer);
    },
    idle: () => loop.idle(),
  };
}
