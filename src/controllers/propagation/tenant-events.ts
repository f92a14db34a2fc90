// Events about a tenant's cluster-scoped objects (its ClusterResourceBindings)
// go where kube puts them, the "default" namespace, but the tenant's: upstream
// `<id>-default`, so `kubectl get events` and `kubectl describe crb` show them
// to that tenant and to no other. Events about namespaced objects go with them.
// There the Event's involvedObject names that namespace (event-recorder.ts), as a real
// host requires outside "default"; the gateway shows it without one (event-scope.ts).
import { toUpstreamNamespace } from '../../core/tenancy/names.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { EventRecorder } from '../runtime/event-recorder.ts';

export function tenantEventRecorder(create: (clusterScopedNamespace?: string) => EventRecorder): EventRecorder {
  const shared = create();
  // One recorder per tenant that has had a cluster-scoped event (it remembers the last Event per object, to bump its count).
  const byTenant = new Map<string, EventRecorder>();
  return {
    record(obj, type, reason, message) {
      const id = obj.metadata.labels?.[TENANT_LABEL];
      if (obj.metadata.namespace || !id) return shared.record(obj, type, reason, message);
      let recorder = byTenant.get(id);
      if (!recorder) byTenant.set(id, (recorder = create(toUpstreamNamespace(id, 'default'))));
      return recorder.record(obj, type, reason, message);
    },
  };
}
