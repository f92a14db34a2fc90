// Builds Cluster objects for scheduler tests.
import type { Cluster, ClusterSpec, ResourceList, Taint } from '../../../../../src/core/propagation/karmada-types.ts';

export interface ClusterOptions {
  labels?: Record<string, string>;
  spec?: Partial<ClusterSpec>;
  taints?: Taint[];
  /** Free cpu cores (pods 1000): with a request of cpu 1 this is the available replicas. */
  cpu?: number;
  summary?: { allocatable?: ResourceList; allocated?: ResourceList; allocating?: ResourceList };
  deleting?: boolean;
}

export function cluster(name: string, o: ClusterOptions = {}): Cluster {
  const summary = o.summary ?? (o.cpu === undefined ? undefined : { allocatable: { cpu: String(o.cpu), pods: '1000' } });
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster',
    metadata: { name, ...(o.labels ? { labels: o.labels } : {}), ...(o.deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
    spec: { ...o.spec, ...(o.taints ? { taints: o.taints } : {}) },
    ...(summary ? { status: { resourceSummary: summary } } : {}),
  };
}

export const ONE_CPU = { resourceRequest: { cpu: '1' } };
