// What the engine believes of a binding. Bindings are written by the engine
// alone (the gateway refuses tenants' writes), but the engine does not rely on
// that: a binding found upstream steers member writes only if everything it
// names is its own tenant's (ADR 19). A ResourceBinding lives in one of the
// tenant's namespaces and names a namespaced kind; a ClusterResourceBinding
// carries the tenant prefix and names a cluster-scoped kind whose object name
// carries it too. Anything else is ignored, whatever its labels say.
import type { ResourceBinding } from '../karmada-types.ts';
import { TENANT_LABEL } from '../../tenancy/tenant-id.ts';
import { toTenantClusterName, toTenantCrdName, toTenantGroup, toTenantNamespace } from '../../tenancy/names.ts';

/** What the rules need of a template row (the engine's TemplateResource). */
export interface RowScope {
  group: string;
  kind: string;
  clusterScoped?: true;
  custom?: true;
}

/** Where a binding's copy lives on every member: upstream (= member) namespace ('' when cluster-scoped) and name. */
export interface MemberAddress {
  namespace: string;
  name: string;
}

export type BindingVerdict = { ok: true; address: MemberAddress; tenantName: string } | { ok: false; reason: string };

const isCrdRow = (row: RowScope): boolean => row.group === 'apiextensions.k8s.io' && row.kind === 'CustomResourceDefinition';

/** A name the engine may put in a path segment: what kube accepts as an object name, never `.`/`..` or a slash. */
function plainName(name: string): boolean {
  return name.length > 0 && name.length <= 253 && name !== '.' && name !== '..' && /^[a-z0-9]([-a-z0-9.:_]*[a-z0-9])?$/i.test(name);
}

/**
 * The tenant's name for a cluster-scoped object's upstream (and member) name, or undefined when the
 * name is not this tenant's. A CRD is `<plural>.<id>-<group>`; everything else `<id>-<name>`.
 */
export function tenantNameOf(tenantId: string, row: RowScope, upstreamName: string): string | undefined {
  return isCrdRow(row) ? toTenantCrdName(tenantId, upstreamName) : toTenantClusterName(tenantId, upstreamName);
}

/** Whether the engine may act on this binding for this tenant, and the one member address it may touch. */
export function judgeBinding(tenantId: string, binding: ResourceBinding, row: RowScope): BindingVerdict {
  const refuse = (reason: string): BindingVerdict => ({ ok: false, reason });
  if (binding.metadata.labels?.[TENANT_LABEL] !== tenantId) return refuse('the binding is not labelled as this tenant\'s');
  const namespace = binding.metadata.namespace ?? '';
  const resource = binding.spec?.resource;
  if (!resource || typeof resource.name !== 'string' || !plainName(resource.name)) return refuse('spec.resource names no object');
  if (row.custom && toTenantGroup(tenantId, row.group) === undefined) return refuse(`spec.resource names a kind of another tenant (${row.kind})`);
  if (namespace) {
    if (toTenantNamespace(tenantId, namespace) === undefined) return refuse('the binding is not in one of the tenant\'s namespaces');
    if (row.clusterScoped) return refuse(`a ResourceBinding cannot name the cluster-scoped kind ${row.kind}`);
    if (resource.namespace !== undefined && resource.namespace !== '' && resource.namespace !== namespace) return refuse('spec.resource names another namespace');
    return { ok: true, address: { namespace, name: resource.name }, tenantName: resource.name };
  }
  if (toTenantClusterName(tenantId, binding.metadata.name ?? '') === undefined) return refuse('the ClusterResourceBinding\'s name is not the tenant\'s');
  if (!row.clusterScoped) return refuse(`a ClusterResourceBinding cannot name the namespaced kind ${row.kind}`);
  if (resource.namespace) return refuse('spec.resource of a cluster-scoped kind names a namespace');
  const tenantName = tenantNameOf(tenantId, row, resource.name);
  if (tenantName === undefined) return refuse(`spec.resource names a ${row.kind} that is not the tenant's`);
  return { ok: true, address: { namespace: '', name: resource.name }, tenantName };
}
