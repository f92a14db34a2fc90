// What the console's informers keep of each object: only what the pages show.
// managedFields and annotations are dropped (the largest parts of most
// objects, and annotations may carry a tenant's last-applied configuration);
// a binding keeps its reference, placement, conditions and per-member ready
// counts, not the member objects' whole status.
import type { KubeObject } from '../../core/types.ts';
import type { ResourceBinding } from '../../core/propagation/karmada-types.ts';

export function slimObject<T extends KubeObject>(obj: T): T {
  const { managedFields: _m, annotations: _a, ...metadata } = obj.metadata as KubeObject['metadata'] & { managedFields?: unknown; annotations?: unknown };
  return { ...obj, metadata };
}

export function slimBinding(binding: ResourceBinding): ResourceBinding {
  const slim = slimObject(binding);
  const spec = binding.spec ?? {};
  return {
    ...slim,
    spec: { resource: spec.resource, ...(spec.replicas !== undefined ? { replicas: spec.replicas } : {}), ...(spec.clusters ? { clusters: spec.clusters } : {}) },
    status: {
      ...(binding.status?.conditions ? { conditions: binding.status.conditions } : {}),
      aggregatedStatus: (binding.status?.aggregatedStatus ?? []).map((s) => ({
        clusterName: s.clusterName,
        ...(s.applied !== undefined ? { applied: s.applied } : {}),
        ...(s.health ? { health: s.health } : {}),
        ...(typeof s.status?.readyReplicas === 'number' ? { status: { readyReplicas: s.status.readyReplicas } } : {}),
      })),
    },
  };
}
