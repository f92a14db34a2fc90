// Which tenant an upstream object belongs to, for the shared cache's index.
// Namespaced objects belong to the tenant whose prefix their namespace carries:
// that is what puts the Events, Endpoints, EndpointSlices, "default"
// ServiceAccounts and "kube-root-ca.crt" ConfigMaps that upstream controllers
// make in a tenant namespace (without the tenant label) in the tenant's view.
// Cluster-scoped objects need both the prefix (on the name, or on a CRD's
// group) and the tenant label: a cluster-scoped name that merely looks
// prefixed (an upstream "system-…" object) must not land in a tenant's index.
import type { KubeObject } from '../../core/types.ts';
import { prefixOwner, TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';

export { prefixOwner };

export interface OwnerRule {
  /** CRD objects are named `<plural>.<id>-<group>`: the prefix sits after the first dot. */
  crdNames: boolean;
}

/** The owning tenant of an upstream object, or undefined for upstream system objects. */
export function tenantOwnerOf(obj: KubeObject, rule: OwnerRule): string | undefined {
  const { namespace, name, labels } = obj.metadata;
  if (namespace) return prefixOwner(namespace);
  if (!name) return undefined;
  let owner: string | undefined;
  if (rule.crdNames) {
    const dot = name.indexOf('.');
    owner = dot > 0 ? prefixOwner(name.slice(dot + 1)) : undefined;
  } else {
    owner = prefixOwner(name);
  }
  return owner !== undefined && labels?.[TENANT_LABEL] === owner ? owner : undefined;
}
