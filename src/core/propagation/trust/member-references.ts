// What a member's copy of a tenant's object may not name (core/tenancy/reserved-references.ts):
// a `system-*` priority class (its pods would preempt other tenants' pods on the
// shared member) and a claim's volumeName (a member's volumes are the platform's
// or other tenants'; the member's binder would hand the named one over). The
// copy is the template after the tenant's OverridePolicies, which the gateway's
// admission never saw: an override's plaintext can write any field. Refused
// whole, as a cluster-wide grant is (member-rbac.ts): the Work says why and
// nothing is applied.
import { describeReserved, memberReservedReferences } from '../../tenancy/reserved-references.ts';
import type { MemberRbac } from './member-rbac.ts';

export function refuseReservedReferences(copy: MemberRbac): MemberRbac {
  if (!copy.ok) return copy;
  const ref = memberReservedReferences(copy.obj)[0];
  return ref ? { ok: false, reason: `the copy for this cluster may not hold ${describeReserved(ref)}` } : copy;
}
