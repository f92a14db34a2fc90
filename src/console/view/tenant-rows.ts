// Tenants as the console lists them (pure): phase, users, usage against quota
// as bars, the members each may use. Read from the Tenant objects alone; the
// replica count comes from the placement map, computed beside it.
import type { Tenant } from '../../tenants/tenant-crd.ts';
import { quantityNumber as parseQuantity } from '../../core/quantity.ts';
import type { TenantRow, UsageBar } from './console-types.ts';

const BARS = ['namespaces', 'cpu', 'memory', 'storage'] as const;

/** used / limit as a bar; undefined when the quota does not limit the resource. */
export function usageBar(resource: string, used: unknown, limit: unknown): UsageBar | undefined {
  if (limit === undefined || limit === null || limit === '') return undefined;
  const max = parseQuantity(limit);
  const now = parseQuantity(used ?? 0) ?? 0;
  const ratio = max === undefined || max <= 0 ? (now > 0 ? Infinity : 0) : now / max;
  return { resource, used: String(used ?? 0), limit: String(limit), fraction: Math.min(1, Math.max(0, ratio)), over: ratio > 1 };
}

export function usageBars(tenant: Tenant): UsageBar[] {
  const quota = (tenant.spec?.quota ?? {}) as Record<string, unknown>;
  const usage = (tenant.status?.usage ?? {}) as Record<string, unknown>;
  return BARS.flatMap((r) => usageBar(r, usage[r], quota[r]) ?? []);
}

/** The phase to show: a deletion in progress is Terminating whatever the status says yet. */
export function phaseOf(tenant: Tenant): string {
  if (tenant.metadata.deletionTimestamp) return 'Terminating';
  return tenant.status?.phase ?? 'Pending';
}

export function tenantIdOf(tenant: Tenant): string {
  return tenant.status?.id ?? tenant.spec?.id ?? '';
}

export function tenantRow(tenant: Tenant, replicas = 0): TenantRow {
  const users = tenant.spec?.users ?? [];
  return {
    name: tenant.metadata.name ?? '',
    id: tenantIdOf(tenant),
    displayName: tenant.spec?.displayName ?? '',
    phase: phaseOf(tenant),
    users: users.map((u) => u.name),
    admins: users.filter((u) => u.admin === true).map((u) => u.name),
    usage: usageBars(tenant),
    members: [...(tenant.status?.clusters ?? [])].sort(),
    createdAt: tenant.metadata.creationTimestamp ?? '',
    suspended: tenant.spec?.suspended === true,
    replicas,
  };
}
