// How `warren tenant list|get` print Tenants, as `kubectl get` prints objects:
// aligned columns (NAME ID PHASE AGE, the CRD's printer columns), -o wide with
// more, -o name, -o json|yaml (a List for several), --no-headers. Pure.
import { stringify } from 'yaml';
import { ageSince } from '../core/table/human-duration.ts';
import { TENANT_GROUP, type Tenant } from '../gateway/tenants/tenant-crd.ts';

export const TENANT_OUTPUTS = ['wide', 'json', 'yaml', 'name'] as const;
export type TenantOutput = (typeof TENANT_OUTPUTS)[number] | 'table';

export function parseTenantOutput(text: string | undefined): TenantOutput {
  if (text === undefined) return 'table';
  if ((TENANT_OUTPUTS as readonly string[]).includes(text)) return text as TenantOutput;
  throw new Error(`unable to match a printer suitable for the output format "${text}", allowed formats are: ${TENANT_OUTPUTS.join(',')}`);
}

/** kubectl's table layout: each column padded to its widest cell plus three spaces, the last one not padded. */
export function alignColumns(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3))).join('').trimEnd()).join('\n') + '\n';
}

function readyMessage(t: Tenant): string {
  const ready = t.status?.conditions?.find((c) => c.type === 'Ready');
  return ready && ready.status !== 'True' ? `${ready.reason ?? ''}${ready.message ? `: ${ready.message}` : ''}` : '';
}

function cells(t: Tenant, wide: boolean, now: Date): string[] {
  const base = [t.metadata.name ?? '', t.status?.id ?? '<none>', t.status?.phase ?? 'Pending', ageSince(t.metadata.creationTimestamp, now)];
  if (!wide) return base;
  const admins = (t.spec?.users ?? []).filter((u) => u.admin).map((u) => u.name);
  const quota = t.spec?.quota?.namespaces;
  const namespaces = `${t.status?.usage?.namespaces ?? 0}/${quota ?? '-'}`;
  const clusters = t.status?.clusters?.length ? t.status.clusters.join(',') : '<none>';
  return [...base, admins.join(',') || '<none>', namespaces, clusters, readyMessage(t)];
}

export interface TenantPrintOptions {
  output: TenantOutput;
  noHeaders: boolean;
  now: Date;
  /** One object asked for by name (`tenant get NAME`): json/yaml print it alone, not as a List. */
  single: boolean;
}

export function formatTenants(tenants: Tenant[], options: TenantPrintOptions): string {
  switch (options.output) {
    case 'name':
      return tenants.map((t) => `tenant.${TENANT_GROUP}/${t.metadata.name ?? ''}\n`).join('');
    case 'json':
    case 'yaml': {
      const value = options.single && tenants.length === 1 ? tenants[0] : { apiVersion: 'v1', kind: 'List', items: tenants, metadata: { resourceVersion: '' } };
      return options.output === 'json' ? `${JSON.stringify(value, null, 4)}\n` : stringify(value);
    }
    default: {
      const wide = options.output === 'wide';
      const header = ['NAME', 'ID', 'PHASE', 'AGE', ...(wide ? ['ADMINS', 'NAMESPACES', 'CLUSTERS', 'MESSAGE'] : [])];
      const rows = tenants.map((t) => cells(t, wide, options.now));
      return alignColumns(options.noHeaders ? rows : [header, ...rows]);
    }
  }
}
