// The gateway's admission chain, composed once, in its documented order
// (admission-chain.ts says why each sits where it does).
import type { Upstream } from '../../kube/upstream.ts';
import type { PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import { placementContractOf, type PlacementContract } from '../../core/tenancy/pod-placement.ts';
import type { TenantPolicies } from '../authz/tenant-policies.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import { createAdmissionChain, type AdmissionChain } from './admission-chain.ts';
import { rbacAdmitter } from './rbac-admitter.ts';
import { podSecurityAdmitter } from './pod-security-admitter.ts';
import { karmadaPolicyAdmitter } from './karmada-policies.ts';
import { quotaAdmitter } from './quota-admitter.ts';
import { ownerReferencesAdmitter } from './owner-references-admitter.ts';
import { pvcVolumeAdmitter } from './pvc-volume-admitter.ts';
import { reservedReferencesAdmitter } from './reserved-references-admitter.ts';
import { objectCountAdmitter } from './object-count-admitter.ts';
import type { ObjectCounts } from './object-counts.ts';

export interface WriteAdmissionOptions {
  upstream: Upstream;
  tenants: TenantDirectory;
  policies: TenantPolicies;
  /** Resolves true once the RBAC informers provably caught up with the upstream (bounded). */
  rbacCatchUp?: (timeoutMs: number) => Promise<boolean>;
  /** Called with each quota refusal (metrics). */
  onQuotaRefusal?: (tenantId: string) => void;
  /** The count quota's counters (default: its own, object-counts.ts); the quota view listens to them. */
  counts?: ObjectCounts;
  /** The platform's placement contract for tenants whose spec.placement says nothing (default SAFE_PLACEMENT, ADR 0043). */
  placement?: PlacementContract;
}

export const podSecurityLevelOf = (tenants: TenantDirectory) => (tenantId: string): PodSecurityLevel => tenants.byId(tenantId)?.podSecurity ?? 'baseline';

/** The placement contract a tenant is held to: its own spec.placement over the platform's default (ADR 0043). */
export const placementOf = (tenants: TenantDirectory, platform?: PlacementContract) => (tenantId: string): PlacementContract =>
  placementContractOf(tenants.byId(tenantId)?.placement, platform);

export function createWriteAdmission(options: WriteAdmissionOptions): AdmissionChain {
  const refusals = options.onQuotaRefusal ? { onRefusal: options.onQuotaRefusal } : {};
  return createAdmissionChain([
    rbacAdmitter(options.policies, options.rbacCatchUp),
    podSecurityAdmitter(podSecurityLevelOf(options.tenants)),
    karmadaPolicyAdmitter(),
    ownerReferencesAdmitter(options.upstream),
    pvcVolumeAdmitter(options.upstream),
    reservedReferencesAdmitter(options.upstream, placementOf(options.tenants, options.placement)),
    quotaAdmitter({ upstream: options.upstream, tenants: options.tenants, ...refusals }),
    objectCountAdmitter({ upstream: options.upstream, tenants: options.tenants, ...refusals, ...(options.counts ? { counts: options.counts } : {}) }),
  ]);
}
