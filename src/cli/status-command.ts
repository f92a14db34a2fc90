// `warren status [-o json]`: the platform admin's picture of the system, read
// from the host with the admin kubeconfig: tenants (phase, usage against quota,
// allowed members), members (version, health, taints) and every tenant's
// Resource- and ClusterResourceBindings, which say where its replicas run. Four LISTs; the report
// itself is built and formatted by pure code (status-report.ts).
import type { Upstream } from '../kube/upstream.ts';
import type { Cluster, ResourceBinding } from '../core/propagation/karmada-types.ts';
import { TENANTS_PATH, type Tenant } from '../tenants/tenant-crd.ts';
import { CLUSTERS_PATH } from '../up/register-members.ts';
import { str, type CommandInput } from './cli-io.ts';
import { hostFlags, hostUpstream } from './host-upstream.ts';
import { buildStatusReport, formatStatusText, type StatusReport } from './status-report.ts';

const BINDINGS_PATH = '/apis/work.karmada.io/v1alpha2/resourcebindings';
const CLUSTER_BINDINGS_PATH = '/apis/work.karmada.io/v1alpha2/clusterresourcebindings';

/**
 * The items of a cluster-wide LIST. A 404 means the kind is not installed on
 * this host (no Karmada CRDs yet, or no member registered): an empty section,
 * not a failure, so status still shows the tenants; unless `missing` says the
 * 404 is a mistake of its own.
 */
async function listAll<T>(upstream: Upstream, path: string, missing?: string): Promise<T[]> {
  const answer = await upstream.request<{ items?: T[]; message?: string }>('GET', path);
  if (answer.status === 404 && missing !== undefined) throw new Error(missing);
  if (answer.status === 404) return [];
  if (answer.status !== 200) throw new Error(`cannot list ${path}: ${answer.body.message ?? `HTTP ${answer.status}`}`);
  return answer.body.items ?? [];
}

/** No Tenant API is the admin's mistake: a tenant's kubeconfig (the gateway serves tenants none) or a host Warren never ran on. */
const NO_TENANT_API = 'this cluster serves no Tenant API (tenancy.warren.dev): warren status needs the host cluster\'s admin kubeconfig (--kubeconfig), not a tenant\'s, on a host where `warren serve` or `warren up` has run';

export async function fetchStatus(upstream: Upstream): Promise<StatusReport> {
  const [tenants, clusters, bindings, clusterBindings] = await Promise.all([
    listAll<Tenant>(upstream, TENANTS_PATH, NO_TENANT_API),
    listAll<Cluster>(upstream, CLUSTERS_PATH),
    listAll<ResourceBinding>(upstream, BINDINGS_PATH),
    listAll<ResourceBinding>(upstream, CLUSTER_BINDINGS_PATH),
  ]);
  return buildStatusReport({ tenants, clusters, bindings: [...bindings, ...clusterBindings] });
}

export async function runStatusCommand({ io, values }: CommandInput): Promise<number> {
  const output = str(values, 'output') ?? 'text';
  if (output !== 'text' && output !== 'json') {
    io.err(`error: -o must be text or json, not "${output}"\n`);
    return 2;
  }
  const upstream = hostUpstream(hostFlags(values), io.env);
  try {
    const report = await fetchStatus(upstream);
    io.out(output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatStatusText(report));
    return 0;
  } finally {
    upstream.close();
  }
}
