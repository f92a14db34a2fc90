// The picture `warren status` prints, built from what the host holds: Tenants,
// Karmada Clusters and ResourceBindings. Pure: the command fetches, this
// builds and formats, so every column is unit-tested without a cluster.
import type { Tenant } from '../tenants/tenant-crd.ts';
import type { Cluster, ResourceBinding } from '../core/propagation/karmada-types.ts';
import { TENANT_LABEL } from '../core/tenancy/tenant-id.ts';
import { alignedLines } from './object-printer.ts';
import { toTenantClusterName, toTenantNamespace } from '../core/tenancy/names.ts';

export interface TenantRow {
  name: string;
  id: string | null;
  phase: string;
  /** Per quota dimension the tenant has: used (null where not measured yet) against limit (null: no limit). */
  usage: Record<string, Usage>;
  clusters: string[];
  /** Why the tenant is not Ready (the Ready condition), empty when it is. */
  message: string;
}

export interface Usage { used: string | number | null; limit: string | number | null }

export interface MemberRow { name: string; version: string; ready: string; nodes: string; taints: string[] }

export interface BindingRow {
  tenant: string;
  /** In the tenant's terms (the upstream prefix stripped). */
  namespace: string;
  name: string;
  resource: string;
  replicas: number | null;
  clusters: Array<{ name: string; replicas: number | null }>;
  scheduled: string;
  fullyApplied: string;
}

export interface StatusReport { tenants: TenantRow[]; members: MemberRow[]; bindings: BindingRow[] }

const NONE = '<none>';

function cell(value: unknown): string {
  return value === undefined || value === null || value === '' ? '-' : String(value);
}

function usageOf(tenant: Tenant): Record<string, Usage> {
  const quota = tenant.spec?.quota ?? {};
  const usage = tenant.status?.usage ?? {};
  const out: Record<string, Usage> = {};
  const dimensions = ['namespaces', 'cpu', 'memory', 'storage'] as const;
  for (const d of dimensions) {
    if (quota[d] !== undefined || usage[d] !== undefined) out[d] = { used: usage[d] ?? null, limit: quota[d] ?? null };
  }
  // Objects are limited per resource: the fullest resource is the one that will refuse first.
  const counts = Object.values(usage.objects ?? {});
  if (quota.objectsPerResource !== undefined || counts.length > 0) out.objects = { used: counts.length > 0 ? Math.max(...counts) : null, limit: quota.objectsPerResource ?? null };
  return out;
}

function conditionStatus(conditions: Array<{ type: string; status: string }> | undefined, type: string): string {
  return conditions?.find((c) => c.type === type)?.status ?? 'Unknown';
}

export function buildStatusReport(input: { tenants: Tenant[]; clusters: Cluster[]; bindings: ResourceBinding[] }): StatusReport {
  const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);
  const tenants = input.tenants.map((t): TenantRow => {
    const ready = t.status?.conditions?.find((c) => c.type === 'Ready');
    return {
      name: t.metadata.name ?? '',
      id: t.status?.id ?? null,
      phase: t.status?.phase ?? 'Pending',
      usage: usageOf(t),
      clusters: [...(t.status?.clusters ?? [])],
      message: ready?.status === 'True' ? '' : [ready?.reason, ready?.message].filter((s) => s).join(': '),
    };
  }).sort(byName);
  const members = input.clusters.map((c): MemberRow => ({
    name: c.metadata.name ?? '',
    version: c.status?.kubernetesVersion ?? '',
    ready: conditionStatus(c.status?.conditions, 'Ready'),
    nodes: c.status?.nodeSummary ? `${c.status.nodeSummary.readyNum ?? 0}/${c.status.nodeSummary.totalNum ?? 0}` : '',
    taints: (c.spec.taints ?? []).map((x) => `${x.key}${x.value ? `=${x.value}` : ''}:${x.effect}`),
  })).sort(byName);
  const tenantById = new Map(tenants.filter((t) => t.id).map((t) => [t.id as string, t.name]));
  const bindings = input.bindings.flatMap((b): BindingRow[] => {
    const id = b.metadata.labels?.[TENANT_LABEL];
    // Not a tenant's binding (the platform's own, or another Karmada): not Warren's to report.
    if (!id) return [];
    const upstreamNamespace = b.metadata.namespace ?? '';
    const upstreamName = b.metadata.name ?? '';
    return [{
      tenant: tenantById.get(id) ?? `(id ${id})`,
      // A ClusterResourceBinding (cluster-scoped template) has no namespace, and its name carries the tenant prefix upstream.
      namespace: upstreamNamespace ? toTenantNamespace(id, upstreamNamespace) ?? upstreamNamespace : '',
      name: upstreamNamespace ? upstreamName : toTenantClusterName(id, upstreamName) ?? upstreamName,
      resource: `${b.spec.resource.kind}/${upstreamNamespace ? b.spec.resource.name : toTenantClusterName(id, b.spec.resource.name) ?? b.spec.resource.name}`,
      replicas: b.spec.replicas ?? null,
      clusters: (b.spec.clusters ?? []).map((c) => ({ name: c.name, replicas: c.replicas ?? null })),
      scheduled: conditionStatus(b.status?.conditions, 'Scheduled'),
      fullyApplied: conditionStatus(b.status?.conditions, 'FullyApplied'),
    }];
  }).sort((a, b) => a.tenant.localeCompare(b.tenant) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return { tenants, members, bindings };
}


function usageCell(u: Usage | undefined): string {
  return u ? `${cell(u.used)}/${cell(u.limit)}` : '-';
}

function placement(b: BindingRow): string {
  if (b.clusters.length === 0) return NONE;
  return b.clusters.map((c) => (c.replicas === null ? c.name : `${c.name}:${c.replicas}`)).join(',');
}

export function formatStatusText(report: StatusReport): string {
  const out: string[] = [];
  const usageKeys = ['namespaces', 'cpu', 'memory', 'storage', 'objects'].filter((k) => report.tenants.some((t) => k in t.usage));
  out.push('TENANTS');
  if (report.tenants.length === 0) out.push('No tenants: apply one with `warren apply -f tenants/`.');
  else {
    const withMessage = report.tenants.some((t) => t.message);
    out.push(...alignedLines([
      ['NAME', 'ID', 'PHASE', ...usageKeys.map((k) => k.toUpperCase()), 'CLUSTERS', ...(withMessage ? ['MESSAGE'] : [])],
      ...report.tenants.map((t) => [t.name, t.id ?? '-', t.phase, ...usageKeys.map((k) => usageCell(t.usage[k])), t.clusters.join(',') || NONE, ...(withMessage ? [t.message] : [])]),
    ]));
  }
  out.push('', 'MEMBERS');
  if (report.members.length === 0) out.push('No member clusters: register one with `warren member add`.');
  else out.push(...alignedLines([['NAME', 'VERSION', 'READY', 'NODES', 'TAINTS'], ...report.members.map((m) => [m.name, m.version || '-', m.ready, m.nodes || '-', m.taints.join(',') || NONE])]));
  out.push('', 'BINDINGS (where each tenant\'s replicas run)');
  if (report.bindings.length === 0) out.push('No ResourceBindings: no tenant has a workload matched by a (Cluster)PropagationPolicy.');
  else {
    out.push(...alignedLines([
      ['TENANT', 'NAMESPACE', 'NAME', 'RESOURCE', 'REPLICAS', 'CLUSTERS', 'SCHEDULED', 'FULLYAPPLIED'],
      ...report.bindings.map((b) => [b.tenant, b.namespace || '-', b.name, b.resource, b.replicas === null ? '-' : String(b.replicas), placement(b), b.scheduled, b.fullyApplied]),
    ]));
  }
  return `${out.join('\n')}\n`;
}
