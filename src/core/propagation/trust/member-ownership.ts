// Whether an object on a member is the engine's copy for one binding of one
// tenant: it must carry the engine's marks (managed, the binding's uid as
// permanent-id, the tenant label) and sit in the tenant's space (a prefixed
// namespace, or a prefixed cluster-scoped name). Only such an object is updated
// or deleted by the engine; a Namespace is deleted only when it is both the
// tenant's by name and marked for that binding. A Work saying so, or a binding
// naming it, is never proof (ADR 19).
import type { KubeObject } from '../../types.ts';
import { TENANT_LABEL } from '../../tenancy/tenant-id.ts';
import { toTenantNamespace } from '../../tenancy/names.ts';
import { isEngineKey, MANAGED_LABEL, PERMANENT_ID_LABEL } from '../marks.ts';
import { tenantNameOf, type MemberAddress, type RowScope } from './binding-trust.ts';

/** The object is in this tenant's space on the member, at this address. */
export function inTenantSpace(tenantId: string, row: RowScope, obj: KubeObject, address?: MemberAddress): boolean {
  const namespace = obj.metadata.namespace ?? '';
  const name = obj.metadata.name ?? '';
  if (address && (address.namespace !== namespace || address.name !== name)) return false;
  if (row.clusterScoped) return namespace === '' && tenantNameOf(tenantId, row, name) !== undefined;
  return toTenantNamespace(tenantId, namespace) !== undefined;
}

/** The engine's copy for this binding: the only kind of member object it updates in place or deletes. */
export function ownedByBinding(tenantId: string, bindingUid: string, row: RowScope, obj: KubeObject, address?: MemberAddress): boolean {
  const labels = obj.metadata.labels ?? {};
  return bindingUid !== '' && labels[PERMANENT_ID_LABEL] === bindingUid && labels[MANAGED_LABEL] === 'true'
    && labels[TENANT_LABEL] === tenantId && inTenantSpace(tenantId, row, obj, address);
}

/**
 * An object already at the address that the engine did not apply for this binding: may the
 * binding take it over (conflictResolution: Overwrite, or a Namespace the engine made implicitly)?
 * Never when it is marked as another tenant's, carries a binding's marks without this tenant's label, or lies
 * outside the tenant's space.
 */
export function mayTakeOver(tenantId: string, row: RowScope, obj: KubeObject, overwrite: boolean): boolean {
  const labels = obj.metadata.labels ?? {};
  const owner = labels[TENANT_LABEL];
  if (owner !== undefined && owner !== tenantId) return false;
  // Marked as some binding's copy (a permanent id, managed, any engine key) but not as this tenant's: another
  // tenant's or Karmada's, whose tenant label was removed; Overwrite does not reach it.
  if (owner === undefined && Object.keys(labels).some(isEngineKey)) return false;
  if (!inTenantSpace(tenantId, row, obj)) return false;
  // A Namespace is taken over only if the engine made it for this tenant (its tenant label), or Overwrite says so.
  if (row.group === '' && row.kind === 'Namespace') return owner === tenantId || overwrite;
  return overwrite;
}
