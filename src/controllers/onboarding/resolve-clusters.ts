// Which member clusters a tenant may use, into status.clusters (what the
// gateway shows the tenant). The rule itself is shared with the propagation
// engine: src/core/propagation/tenant-clusters.ts. Only existing Clusters are
// listed: a name registered later joins when its Cluster appears (the
// controller re-queues tenants on Cluster events).
export { resolveTenantClusters } from '../../core/propagation/tenant-clusters.ts';

export const CLUSTERS_PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';
