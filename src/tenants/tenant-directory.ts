// What the gateway needs to know about tenants: whether one exists, whether it
// may act, and the point before which its credentials no longer count.
import type { PlacementSpec } from '../core/tenancy/pod-placement.ts';

export type TenantPhase = 'Pending' | 'Ready' | 'Suspended' | 'Terminating';

export interface TenantInfo {
  id: string;
  /** The Tenant object's name (human name). */
  name: string;
  /** The Tenant object's metadata.uid: credentials naming another uid are refused (ADR 0025). */
  uid?: string;
  /** The Tenant object's creationTimestamp: a credential issued before it was another Tenant's (ADR 0025). */
  createdAt?: Date;
  phase: TenantPhase;
  suspended: boolean;
  /** Credentials issued before this instant are refused (warren tenant revoke). */
  credentialsNotBefore?: Date;
  /** Member clusters the tenant may use, as resolved by the onboarding controller. */
  clusters?: string[];
  /** Pod Security Admission level forced on the tenant's namespaces (default baseline). */
  podSecurity?: 'privileged' | 'baseline' | 'restricted';
  /** The Tenant's spec.placement (ADR 0043); absent fields fall back to the platform's default. */
  placement?: PlacementSpec;
  /** Tenant-wide limits enforced by the gateway at admission. */
  quota?: { namespaces?: number; objectsPerResource?: number; cpu?: string | number; memory?: string | number; storage?: string | number };
  /** The Tenant's spec.defaultPlacement: it claims every workload no policy selects (held at create time, ADR 0023). */
  defaultPlacement?: Record<string, unknown>;
  /** The tenant's own fairness limits (gateway/fairness), overriding the gateway's defaults. */
  fairness?: { seats?: number; queueLength?: number; queueTimeoutMs?: number };
}

export interface TenantDirectory {
  byId(id: string): TenantInfo | undefined;
  /**
   * Resolves true once the directory provably caught up with the upstream (bounded by
   * timeoutMs); false when it cannot tell (a static directory, an upstream that does not
   * bookmark on request). Called before refusing a valid credential of an unknown tenant.
   */
  catchUp?(timeoutMs: number): Promise<boolean>;
  byName(name: string): TenantInfo | undefined;
  all(): TenantInfo[];
  /** Resolves once the directory has its initial state. */
  synced(): Promise<void>;
}

/** A fixed directory, for tests and for single-tenant setups. */
export function staticTenantDirectory(tenants: TenantInfo[]): TenantDirectory {
  return {
    byId: (id) => tenants.find((t) => t.id === id),
    byName: (name) => tenants.find((t) => t.name === name),
    all: () => [...tenants],
    synced: () => Promise.resolve(),
  };
}
