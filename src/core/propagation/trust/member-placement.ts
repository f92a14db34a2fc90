// Where a member's copy of a tenant's workload may run (ADR 0043): the tenant's
// placement contract holds on every member as on the host. The copy is the
// template after the tenant's OverridePolicies, which no gateway admission
// judged: an override's plaintext or a labels/args overrider can write any
// field, tolerations and nodeSelector included. The contract's node selector
// is merged into the copy's pod spec (a copy naming one of its keys with
// another value is refused); a toleration the contract does not allow refuses
// the copy whole, as a reserved reference does (member-references.ts): the
// Work and the binding say why, nothing is applied. No stored value passes
// here: a member copy is rebuilt from the template on every sync.
import { POD_SPEC_PATHS, describeReserved, kindKeyOf } from '../../tenancy/reserved-references.ts';
import { forceNodeSelector, placementViolations, type PlacementContract } from '../../tenancy/pod-placement.ts';
import type { MemberRbac } from './member-rbac.ts';

export function holdToPlacement(copy: MemberRbac, contract: PlacementContract): MemberRbac {
  if (!copy.ok) return copy;
  const key = kindKeyOf(copy.obj);
  if (!POD_SPEC_PATHS[key]) return copy;
  // The copy may share parts with the engine's views (ADR 0039): the merge writes into a copy of its own.
  const obj = Object.keys(contract.nodeSelector).length > 0 ? structuredClone(copy.obj) : copy.obj;
  const ref = forceNodeSelector(key, obj, contract) ?? placementViolations(key, obj, contract)[0];
  return ref ? { ok: false, reason: `the copy for this cluster may not hold ${describeReserved(ref)}` } : { ok: true, obj };
}
