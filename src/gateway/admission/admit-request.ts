// Tenant-level admission: a suspended tenant keeps reading but may not write.
// Object admission runs later, once per write on the final object, as one
// ordered chain (admission-chain.ts, composed in write-admission.ts).
import { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { TenantInfo } from '../../tenants/tenant-directory.ts';

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
