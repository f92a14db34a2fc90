// The cluster controller's I/O on the host, as plain functions over API paths:
// the upstream implementation is below; unit tests pass a map-backed fake.
import type { Cluster } from '../../core/propagation/karmada-types.ts';
import type { KubeObject } from '../../core/types.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { statusError } from '../../kube/status-error.ts';

export const CLUSTERS_PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';

export interface HostClient {
  getCluster(name: string): Promise<Cluster | undefined>;
  getSecret(namespace: string, name: string): Promise<(KubeObject & { data?: Record<string, string> }) | undefined>;
  /** PUT /status with the resourceVersion read: a concurrent writer makes it a 409. */
  updateClusterStatus(cluster: Cluster): Promise<Cluster>;
  updateCluster(cluster: Cluster): Promise<Cluster>;
}

export function upstreamHostClient(upstream: Upstream): HostClient {
  const get = async <T>(path: string): Promise<T | undefined> => {
    const res = await upstream.request<T>('GET', path);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw statusError(res.status, res.body);
    return res.body;
  };
  const put = async (path: string, obj: Cluster): Promise<Cluster> => {
    const res = await upstream.request<Cluster>('PUT', path, obj);
    if (res.status !== 200) throw statusError(res.status, res.body);
    return res.body;
  };
  return {
    getCluster: (name) => get<Cluster>(`${CLUSTERS_PATH}/${encodeURIComponent(name)}`),
    getSecret: (namespace, name) => get(`/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(name)}`),
    updateClusterStatus: (cluster) => put(`${CLUSTERS_PATH}/${encodeURIComponent(cluster.metadata.name ?? '')}/status`, cluster),
    updateCluster: (cluster) => put(`${CLUSTERS_PATH}/${encodeURIComponent(cluster.metadata.name ?? '')}`, cluster),
  };
}

