// A tenant's detail page (pure): its row, conditions, recent events (the
// Tenant's and those in its namespaces), namespaces (in its own terms,
// execution spaces left out), quota and bindings. The inputs come from the
// console's informers plus the events reads (server/tenant-events.ts).
import type { KubeObject } from '../../core/types.ts';
import type { ResourceBinding } from '../../core/propagation/karmada-types.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import { toTenantNamespace } from '../../core/tenancy/names.ts';
import { EXECUTION_SPACE_LABEL } from '../../core/propagation/execution-space.ts';
import type { EventRow, TenantDetail } from './console-types.ts';
import { bindingRows } from './placement-map.ts';
import { tenantIdOf, tenantRow, usageBars } from './tenant-rows.ts';

export interface DetailInputs {
  tenant: Tenant;
  namespaces: readonly KubeObject[];
  bindings: readonly ResourceBinding[];
  events: readonly KubeObject[];
  replicas: number;
}

/** One event in the tenant's terms: what it is about, and in which of the tenant's namespaces ('' for the Tenant's own). */
export function eventRow(event: KubeObject, id: string): EventRow {
  const e = event as KubeObject & { type?: string; reason?: string; message?: string; count?: number; lastTimestamp?: string; eventTime?: string; involvedObject?: { kind?: string; name?: string; namespace?: string } };
  const about = e.involvedObject ?? {};
  const namespace = about.namespace && id ? toTenantNamespace(id, about.namespace) ?? '' : '';
  return {
    type: e.type ?? 'Normal',
    reason: e.reason ?? '',
    object: about.kind ? `${about.kind}/${about.name ?? ''}` : '',
    namespace,
    message: e.message ?? '',
    count: typeof e.count === 'number' ? e.count : 1,
    lastSeen: e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '',
  };
}

export function tenantNamespaces(id: string, namespaces: readonly KubeObject[]): { name: string; phase: string }[] {
  if (!id) return [];
  return namespaces.flatMap((ns) => {
    if (ns.metadata.labels?.[EXECUTION_SPACE_LABEL] !== undefined) return [];
    const name = toTenantNamespace(id, ns.metadata.name ?? '');
    if (name === undefined) return [];
    return [{ name, phase: String((ns.status as { phase?: string } | undefined)?.phase ?? 'Active') }];
  }).sort((a, b) => a.name.localeCompare(b.name));
}

export function tenantDetail(inputs: DetailInputs): TenantDetail {
  const { tenant } = inputs;
  const id = tenantIdOf(tenant);
  return {
    row: tenantRow(tenant, inputs.replicas),
    conditions: (tenant.status?.conditions ?? []).map((c) => ({
      type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '', lastTransitionTime: c.lastTransitionTime ?? '',
    })),
    events: inputs.events.map((e) => eventRow(e, id)).sort((a, b) => b.lastSeen.localeCompare(a.lastSeen)).slice(0, 50),
    namespaces: tenantNamespaces(id, inputs.namespaces),
    quota: usageBars(tenant),
    podSecurity: tenant.spec?.podSecurity ?? 'baseline',
    bindings: id ? bindingRows(id, inputs.bindings) : [],
  };
}
