// `warren tenant create`'s flags as a Tenant spec (pure): users, id, pod
// security, the member clusters it may use and its quota. Every flag lands in
// the spec or is refused; none is ignored.
import type { TenantSpec } from '../tenants/tenant-crd.ts';

export interface CreateFlags {
  admins: string[];
  users: string[];
  id?: string | undefined;
  podSecurity?: string | undefined;
  clusters: string[];
  clusterSelector?: string | undefined;
  quota: string[];
}

const INTEGER_QUOTAS = new Set(['namespaces', 'objectsPerResource']);
const QUANTITY_QUOTAS = new Set(['cpu', 'memory', 'storage']);
const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

function pairs(text: string, flag: string): Array<[string, string]> {
  return text.split(',').filter((p) => p !== '').map((part) => {
    const at = part.indexOf('=');
    if (at <= 0) throw new Error(`invalid ${flag} "${part}": want key=value`);
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
  });
}

export function parseQuota(values: string[]): NonNullable<TenantSpec['quota']> {
  const quota: Record<string, number | string> = {};
  for (const [key, value] of values.flatMap((v) => pairs(v, '--quota'))) {
    if (INTEGER_QUOTAS.has(key)) {
      if (!/^[0-9]+$/.test(value)) throw new Error(`invalid --quota ${key}=${value}: a whole number`);
      quota[key] = Number(value);
    } else if (QUANTITY_QUOTAS.has(key)) {
      if (!QUANTITY.test(value)) throw new Error(`invalid --quota ${key}=${value}: a quantity such as 4, 500m or 8Gi`);
      quota[key] = value;
    } else {
      throw new Error(`unknown --quota "${key}": one of ${[...INTEGER_QUOTAS, ...QUANTITY_QUOTAS].join(', ')}`);
    }
  }
  return quota;
}

export function buildTenantSpec(flags: CreateFlags): TenantSpec {
  if (flags.admins.length === 0) {
    throw new Error('tenant create needs at least one --admin USER: the user who gets the tenant\'s first kubeconfig (repeat --admin for more, --user for non-admins)');
  }
  const both = flags.admins.find((a) => flags.users.includes(a));
  if (both) throw new Error(`"${both}" is given as --admin and as --user: once is enough (admins are users)`);
  const spec: TenantSpec = {
    users: [...flags.admins.map((name) => ({ name, admin: true })), ...flags.users.map((name) => ({ name }))],
  };
  if (flags.id !== undefined) spec.id = flags.id;
  if (flags.podSecurity !== undefined) {
    if (!['privileged', 'baseline', 'restricted'].includes(flags.podSecurity)) throw new Error(`invalid --pod-security "${flags.podSecurity}": privileged, baseline or restricted`);
    spec.podSecurity = flags.podSecurity as TenantSpec['podSecurity'];
  }
  if (flags.clusters.length > 0 || flags.clusterSelector !== undefined) {
    spec.clusters = {};
    if (flags.clusters.length > 0) spec.clusters.names = flags.clusters;
    if (flags.clusterSelector !== undefined) {
      if (/!=|\bin\b|\bnotin\b|\(/.test(flags.clusterSelector)) throw new Error(`--cluster-selector takes equality only (k=v,k2=v2), not "${flags.clusterSelector}"`);
      spec.clusters.labelSelector = { matchLabels: Object.fromEntries(pairs(flags.clusterSelector, '--cluster-selector')) };
    }
  }
  if (flags.quota.length > 0) spec.quota = parseQuota(flags.quota);
  return spec;
}
