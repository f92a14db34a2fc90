// Tenant-level admission: a suspended tenant keeps reading but may not write.
// (Quota joins here with onboarding.) Object admission (admitObject) runs later,
// where the body has been read: the forwarder calls it on the object a create,
// update, apply or patch would write, as kube runs its validating webhooks.
import { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import type { TenantInfo } from '../tenant-directory.ts';
import { admitKarmadaPolicy, karmadaPolicyValidator } from './karmada-policies.ts';
import { judgePendingPatch } from './quota-pending-patch.ts';

const READS = new Set(['get', 'list', 'watch']);

export function admitRequest(tenant: TenantInfo, info: RequestInfo): void {
  if (!info.isResourceRequest || READS.has(info.verb)) return;
  // Access reviews only read policy: allowed while suspended, so `kubectl auth can-i` keeps working.
  if (info.apiGroup === 'authorization.k8s.io') return;
  if (tenant.suspended || tenant.phase === 'Suspended') {
    throw new ApiError('Forbidden', `tenant "${tenant.name}" is suspended: writes are refused until the suspension is lifted; reads still work`, { kind: info.resource });
  }
  if (tenant.phase === 'Terminating') {
    throw new ApiError('Forbidden', `tenant "${tenant.name}" is being deleted`, { kind: info.resource });
  }
}

/** Validating admission of the object a write would store, in the tenant's terms; throws its ApiError. */
export function admitObject(info: RequestInfo, tenantObject: unknown): void {
  admitKarmadaPolicy(info, tenantObject);
}

/**
 * The same, for the final object of a patch the gateway applies itself
 * (read-modify-write, in upstream terms): judged as the tenant would see it,
 * then returned unchanged to be written.
 */
export function admitUpstreamObject(ctx: TenantContext, info: RequestInfo, upstreamObject: KubeObject): KubeObject {
  if (karmadaPolicyValidator(info)) admitObject(info, toTenantObject(ctx, structuredClone(upstreamObject)));
  // The tenant-wide cpu/memory/storage quota judges a patch's final object here (quota-forwarder.ts).
  judgePendingPatch(info, upstreamObject);
  return upstreamObject;
}
