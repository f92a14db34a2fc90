// Phase 2: the tenant's id. spec.id when given and nobody else holds it;
// otherwise 6 random characters [a-z][a-z0-9]{5} that no existing Tenant
// holds (in status.id or spec.id) and that this process has not handed out
// since (the informer lags behind our own writes). Ids are never reused while
// a Tenant with them exists; once the Tenant is gone, its id may come back.
import { randomInt } from 'node:crypto';
import { isTenantId, prefixOwner, TENANT_ID_FIRST_CHARS as FIRST, TENANT_ID_LENGTH, TENANT_ID_REST_CHARS as REST } from '../../core/tenancy/tenant-id.ts';
import { pickTenant } from '../../tenants/tenant-info.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';

export function generateTenantId(random: (max: number) => number = randomInt): string {
  let id = FIRST[random(FIRST.length)] ?? 'a';
  for (let i = 1; i < TENANT_ID_LENGTH; i++) id += REST[random(REST.length)] ?? '0';
  return id;
}

export type IdDecision =
  | { kind: 'keep'; id: string } // status.id already set
  | { kind: 'assign'; id: string } // write status.id
  | { kind: 'conflict'; id: string; holder: string };

export interface AssignIdInput {
  tenant: Tenant;
  /** Every Tenant the controller knows of, this one included. */
  all: Iterable<Tenant>;
  /**
   * The Tenants holding an id (in status.id or spec.id), from an index: when given, `all` is
   * not scanned. A scan per new tenant made onboarding n tenants O(n²) (0.7 s of CPU at 1,000).
   */
  holders?: (id: string) => Iterable<Tenant>;
  /** Ids handed out by this process and maybe not yet seen in `all`. */
  reserved: ReadonlySet<string>;
  /**
   * Ids the platform's own upstream namespaces already spell (`warren-system` → `warren`):
   * a tenant with such an id would own them, by prefix, in the gateway's eyes.
   */
  platform?: ReadonlySet<string>;
  random?: (max: number) => number;
}

export function decideTenantId(input: AssignIdInput): IdDecision {
  const { tenant } = input;
  const name = tenant.metadata.name ?? '';
  if (tenant.status?.id) return { kind: 'keep', id: tenant.status.id };
  const holders = input.holders ?? ((id: string) => [...input.all].filter((t) => t.status?.id === id || t.spec?.id === id));
  const otherHolders = (id: string): Tenant[] => [...holders(id)].filter((t) => t.metadata.name !== name);
  const wanted = tenant.spec?.id;
  if (wanted && input.platform?.has(wanted)) return { kind: 'conflict', id: wanted, holder: 'the platform (upstream namespaces already use this prefix)' };
  if (wanted) {
    const claimants = otherHolders(wanted);
    // The same rule as the gateway's directory, so both agree who holds the id.
    const holder = claimants.length ? pickTenant([tenant, ...claimants], wanted) : tenant;
    if (holder && holder.metadata.name !== name) return { kind: 'conflict', id: wanted, holder: holder.metadata.name ?? '' };
    return { kind: 'assign', id: wanted };
  }
  for (;;) {
    const id = generateTenantId(input.random);
    if (isTenantId(id) && !input.reserved.has(id) && !input.platform?.has(id) && otherHolders(id).length === 0) return { kind: 'assign', id };
  }
}

/** Warren's own namespace prefix, reserved even before anything upstream uses it. */
export const ALWAYS_RESERVED = ['warren'];

/** The ids that upstream namespaces not belonging to any tenant already spell as `<id>-…`. */
export function platformIds(namespaces: Array<{ metadata: { name?: string; labels?: Record<string, string> } }>, tenantLabel: string): Set<string> {
  const out = new Set(ALWAYS_RESERVED);
  for (const ns of namespaces) {
    const id = prefixOwner(ns.metadata.name ?? '');
    if (id && ns.metadata.labels?.[tenantLabel] !== id) out.add(id);
  }
  return out;
}
