// How `warren tenant list|get` print Tenants (object-printer.ts): NAME ID PHASE
// AGE, the CRD's printer columns; -o wide adds admins, namespaces used/allowed,
// members and why it is not Ready. Pure.
import { ageSince } from '../core/table/human-duration.ts';
import { TENANT_GROUP, type Tenant } from '../tenants/tenant-crd.ts';
import { formatObjects, type Columns, type PrintOptions } from './object-printer.ts';

function readyMessage(t: Tenant): string {
  const ready = t.status?.conditions?.find((c) => c.type === 'Ready');
  return ready && ready.status !== 'True' ? `${ready.reason ?? ''}${ready.message ? `: ${ready.message}` : ''}` : '';
}

export const TENANT_COLUMNS: Columns<Tenant> = {
  header: ['NAME', 'ID', 'PHASE', 'AGE'],
  wideHeader: ['ADMINS', 'NAMESPACES', 'CLUSTERS', 'MESSAGE'],
  cells: (t, now) => [t.metadata.name ?? '', t.status?.id ?? '<none>', t.status?.phase ?? 'Pending', ageSince(t.metadata.creationTimestamp, now)],
  wideCells: (t) => {
    const admins = (t.spec?.users ?? []).filter((u) => u.admin).map((u) => u.name);
    const namespaces = `${t.status?.usage?.namespaces ?? 0}/${t.spec?.quota?.namespaces ?? '-'}`;
    const clusters = t.status?.clusters?.length ? t.status.clusters.join(',') : '<none>';
    return [admins.join(',') || '<none>', namespaces, clusters, readyMessage(t)];
  },
  nameOf: (t) => `tenant.${TENANT_GROUP}/${t.metadata.name ?? ''}`,
};

export function formatTenants(tenants: Tenant[], options: PrintOptions): string {
  return formatObjects(tenants, TENANT_COLUMNS, options);
}
