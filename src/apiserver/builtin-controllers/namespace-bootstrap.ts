// What a real cluster has from the start and in every namespace: the four
// system namespaces, the "kubernetes" Service, the two system PriorityClasses,
// and in each namespace the "default" ServiceAccount and the "kube-root-ca.crt" ConfigMap.
import { ApiError } from '../../core/api-error.ts';
import type { Registry } from '../registry/registry.ts';
import { startWorkLoop } from './event-loop.ts';
import { SYSTEM_PRIORITY_CLASSES } from '../validation/scheduling.ts';

const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function ignoreExists(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof ApiError && (err.reason === 'AlreadyExists' || err.reason === 'Forbidden' || err.reason === 'NotFound'))) throw err;
  }
}

export function ensureSystemObjects(registry: Registry): void {
  const namespaces = registry.lookup('', 'v1', 'namespaces');
  const services = registry.lookup('', 'v1', 'services');
  if (!namespaces || !services) return;
  for (const name of SYSTEM_NAMESPACES) {
    if (!registry.store.get({ resource: 'namespaces', namespace: '', name })) {
      ignoreExists(() => registry.create(namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { fieldManager: 'kube-apiserver' }));
    }
  }
  if (!registry.store.get({ resource: 'services', namespace: 'default', name: 'kubernetes' })) {
    ignoreExists(() => registry.create(services, 'default', {
      apiVersion: 'v1', kind: 'Service',
      metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], sessionAffinity: 'None' },
    }, { fieldManager: 'kube-apiserver' }));
  }
  // kube-apiserver's scheduling/bootstrap-system-priority-classes hook: pods may name them (Priority admission).
  const priorityClasses = registry.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (!priorityClasses) return;
  for (const [name, { value, description }] of Object.entries(SYSTEM_PRIORITY_CLASSES)) {
    if (registry.store.get({ resource: registry.catalog.storageKey(priorityClasses), namespace: '', name })) continue;
    ignoreExists(() => registry.create(priorityClasses, '', {
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description,
    }, { fieldManager: 'kube-apiserver' }));
  }
}

export function startNamespaceBootstrap(registry: Registry, caCertPem: string, log: (line: string) => void): { stop(): void } {
  const serviceAccounts = registry.lookup('', 'v1', 'serviceaccounts');
  const configMaps = registry.lookup('', 'v1', 'configmaps');
  const fill = (namespace: string): void => {
    const ns = registry.store.get({ resource: 'namespaces', namespace: '', name: namespace });
    if (!ns || ns.metadata.deletionTimestamp || !serviceAccounts || !configMaps) return;
    if (!registry.store.get({ resource: 'serviceaccounts', namespace, name: 'default' })) {
      ignoreExists(() => registry.create(serviceAccounts, namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }, { fieldManager: 'kube-controller-manager' }));
    }
    if (!registry.store.get({ resource: 'configmaps', namespace, name: 'kube-root-ca.crt' })) {
      ignoreExists(() => registry.create(configMaps, namespace, {
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt', annotations: { 'kubernetes.io/description': 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.' } },
        data: { 'ca.crt': caCertPem },
      }, { fieldManager: 'kube-controller-manager' }));
    }
  };
  const loop = startWorkLoop<string>(fill, (err, ns) => log(`namespace bootstrap: ${ns}: ${(err as Error).message}`));
  // Namespaces that exist at start are filled at once, so a new server is complete when it reports ready.
  for (const ns of registry.store.list('namespaces').items) fill(ns.metadata.name ?? '');
  const stopWatch = registry.store.watch(undefined, registry.store.revision(), (event) => {
    if (event.resource === 'namespaces' && event.type === 'ADDED') loop.enqueue(event.name);
    // Recreate the defaults if someone deletes them, as the controllers do.
    if (event.type === 'DELETED' && ((event.resource === 'serviceaccounts' && event.name === 'default') || (event.resource === 'configmaps' && event.name === 'kube-root-ca.crt'))) {
      loop.enqueue(event.namespace);
    }
  });
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
  };
}
