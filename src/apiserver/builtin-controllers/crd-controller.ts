// Serves what CRDs define: registers each established CRD's versions in the
// catalog, writes its status conditions (NamesAccepted, Established), and on
// deletion removes every custom resource before letting the CRD go, as
// apiextensions-apiserver's controllers do.
import type { KubeObject } from '../../core/types.ts';
import type { Registry } from '../registry/registry.ts';
import type { CustomResourceDefinition } from '../crd/crd-types.ts';
import { crdResourceDefs } from '../crd/crd-resource-defs.ts';
import { crdStatus } from '../crd/crd-status.ts';
import { stableStringify } from '../registry/object-meta.ts';
import { startWorkLoop } from './event-loop.ts';
import { compareVersionPriority } from '../../core/resources/version-priority.ts';

export const CRD_STORAGE_KEY = 'customresourcedefinitions.apiextensions.k8s.io';
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

function comparable(status: unknown): string {
  const s = (status ?? {}) as { conditions?: Array<Record<string, unknown>> };
  const conditions = (s.conditions ?? []).map(({ lastTransitionTime: _t, ...rest }) => rest);
  return stableStringify({ ...s, conditions });
}

export function startCrdController(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const crdDef = registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  const register = (crd: CustomResourceDefinition): void => {
    const defs = crdResourceDefs(crd).map((def) => ({ ...def, custom: true }));
    defs.sort((a, b) => compareVersionPriority(a.version, b.version));
    registry.catalog.setCustom(crd.metadata.name ?? '', defs);
  };

  const reconcile = (name: string): void => {
    const crd = registry.store.get({ resource: CRD_STORAGE_KEY, namespace: '', name }) as CustomResourceDefinition | undefined;
    if (!crd || !crdDef) {
      registry.catalog.setCustom(name, []);
      return;
    }
    if (crd.metadata.deletionTimestamp) {
      cleanup(crd);
      return;
    }
    const others = registry.store.list(CRD_STORAGE_KEY).items.filter((o) => o.metadata.name !== name) as CustomResourceDefinition[];
    const status = crdStatus(crd, new Date(), others);
    const established = (status.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
    if (established) register(crd);
    if (comparable(status) !== comparable(crd.status)) {
      registry.update(crdDef, '', name, { ...crd, status } as KubeObject, { subresource: 'status', fieldManager: 'kube-apiserver' });
    }
  };

  const cleanup = (crd: CustomResourceDefinition): void => {
    const name = crd.metadata.name ?? '';
    const defs = registry.catalog.all().filter((def) => def.custom && `${def.resource}.${def.group}` === name);
    const def = defs[0];
    if (def) {
      const storageKey = registry.catalog.storageKey(def);
      for (const obj of registry.store.list(storageKey).items) {
        try {
          registry.delete(def, obj.metadata.namespace ?? '', obj.metadata.name ?? '', { propagationPolicy: 'Background' });
        } catch {
          // Already gone, or waiting on finalizers: checked below.
        }
      }
      if (registry.store.list(storageKey, { limit: 1 }).items.length > 0) {
        setTimeout(() => loop.enqueue(name), 200);
        return;
      }
    }
    registry.catalog.setCustom(name, []);
    const fresh = registry.store.get({ resource: CRD_STORAGE_KEY, namespace: '', name });
    if (fresh && crdDef && (fresh.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) {
      const finalizers = (fresh.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      registry.update(crdDef, '', name, { ...fresh, metadata: { ...fresh.metadata, finalizers } }, { fieldManager: 'kube-apiserver' });
    }
  };

  const loop = startWorkLoop<string>(reconcile, (err, name) => {
    log(`crd controller: ${name}: ${(err as Error).message}`);
    setTimeout(() => loop.enqueue(name), 500);
  });
  // Serve what was established before a restart at once, so clients never see a gap.
  for (const crd of registry.store.list(CRD_STORAGE_KEY).items as CustomResourceDefinition[]) {
    const established = (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
    if (established && !crd.metadata.deletionTimestamp) register(crd);
    loop.enqueue(crd.metadata.name ?? '');
  }
  const stopWatch = registry.store.watch(CRD_STORAGE_KEY, registry.store.revision(), (event) => {
    if (event.type === 'DELETED') registry.catalog.setCustom(event.name, []);
    else loop.enqueue(event.name);
  });
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
    idle: () => loop.idle(),
  };
}
