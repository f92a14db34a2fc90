// A deleted tenant leaves nothing on the members either. By the time this runs
// (onboarding's last step before it lets the Tenant go) every binding is gone,
// and with each its copies; what is left are the namespaces the engine made on
// each member, which go now, and (should a binding have gone without its
// copies, e.g. a custom kind whose CRD went first) the tenant's cluster-scoped
// objects the engine made there (by the tenant label). A member that is not ready is skipped rather than
// holding the deletion forever; the note in the log says what was left.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { KubeList } from '../../core/types.ts';
import { statusError } from '../../kube/status-error.ts';
import type { EngineInformers } from './engine-informers.ts';
import type { MemberPool } from './member-pool.ts';
import { MANAGED_LABEL } from './member-labels.ts';
import { inTenantSpace } from '../../core/propagation/trust/member-ownership.ts';
import { allNamespacesPath, isNamespaceRow, TEMPLATE_RESOURCES } from './template-resources.ts';
import { levelled } from '../../observability/log-line.ts';

const NAMESPACE_ROW = { group: '', kind: 'Namespace', clusterScoped: true } as const;

export async function purgeTenantFromMembers(informers: EngineInformers, members: MemberPool, tenantId: string, log: (line: string) => void): Promise<void> {
  for (const cluster of informers.clusters.store.values()) {
    const name = cluster.metadata.name ?? '';
    if (cluster.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True')) {
      log(levelled('warn', `propagation: member ${name} is not ready; tenant ${tenantId}'s namespaces there are left for later cleanup`));
      continue;
    }
    const client = await members.client(cluster);
    if (!client) continue;
    const selector = encodeURIComponent(`${TENANT_LABEL}=${tenantId}`);
    const res = await client.request<KubeList>('GET', `/api/v1/namespaces?labelSelector=${selector}`);
    if (res.status !== 200) throw statusError(res.status, res.body);
    // The label alone is no proof (ADR 19): a namespace goes only if its name is the tenant's too.
    for (const ns of res.body.items.filter((n) => inTenantSpace(tenantId, NAMESPACE_ROW, n))) {
      const del = await client.request('DELETE', `/api/v1/namespaces/${encodeURIComponent(ns.metadata.name ?? '')}`);
      if (del.status !== 200 && del.status !== 202 && del.status !== 404) throw statusError(del.status, del.body);
    }
    const managed = encodeURIComponent(`${TENANT_LABEL}=${tenantId},${MANAGED_LABEL}=true`);
    for (const row of TEMPLATE_RESOURCES.filter((r) => r.clusterScoped && !isNamespaceRow(r))) {
      const list = await client.request<KubeList>('GET', `${allNamespacesPath(row)}?labelSelector=${managed}`);
      if (list.status !== 200) throw statusError(list.status, list.body);
      for (const obj of list.body.items.filter((o) => inTenantSpace(tenantId, row, o))) {
        const del = await client.request('DELETE', `${allNamespacesPath(row)}/${encodeURIComponent(obj.metadata.name ?? '')}`);
        if (del.status !== 200 && del.status !== 202 && del.status !== 404) throw statusError(del.status, del.body);
      }
    }
  }
}
