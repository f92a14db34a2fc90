// References inside objects, each as a forward/inverse pair. A reference is
// rewritten by the referenced kind's scope (kind-treatment.ts); UIDs and
// resourceVersions pass through untouched and are never resolved here, so a
// uid of another tenant's object names nothing the tenant can reach. The
// inverse answers undefined for a reference that is not the tenant's, so the
// caller can drop it rather than show another tenant's prefix.
import type { OwnerReference } from '../types.ts';
import { apiVersionToTenant, apiVersionToUpstream, treatmentOf, type KindTreatment } from './kind-treatment.ts';
import { splitApiVersion, toTenantClusterName, toTenantCrdName, toTenantNamespace, toUpstreamClusterName, toUpstreamCrdName, toUpstreamNamespace } from './names.ts';
import type { TenantContext } from './tenant-context.ts';
import {
  tenantUserSpace, toTenantServiceAccount, toTenantUser, toTenantUserGroup, toUpstreamServiceAccountUser, toUpstreamUser, toUpstreamUserGroup,
} from './user-names.ts';

function nameToUpstream(id: string, t: KindTreatment, name: string): string {
  if (t.name === 'prefix') return toUpstreamClusterName(id, name);
  if (t.name === 'crd') return toUpstreamCrdName(id, name);
  return name;
}

function nameToTenant(id: string, t: KindTreatment, name: string): string | undefined {
  if (t.name === 'prefix') return toTenantClusterName(id, name);
  if (t.name === 'crd') return toTenantCrdName(id, name);
  return name;
}

export function toUpstreamOwnerReference(ctx: TenantContext, ref: OwnerReference): OwnerReference {
  const t = treatmentOf(ctx, splitApiVersion(ref.apiVersion).group, ref.kind);
  return { ...ref, apiVersion: apiVersionToUpstream(ctx, ref.apiVersion), name: nameToUpstream(ctx.id, t, ref.name) };
}

export function toTenantOwnerReference(ctx: TenantContext, ref: OwnerReference): OwnerReference | undefined {
  const apiVersion = apiVersionToTenant(ctx, ref.apiVersion);
  if (apiVersion === undefined) return undefined;
  const name = nameToTenant(ctx.id, treatmentOf(ctx, splitApiVersion(apiVersion).group, ref.kind), ref.name);
  return name === undefined ? undefined : { ...ref, apiVersion, name };
}

/** core/v1 ObjectReference (involvedObject, targetRef, claimRef, related, regarding). */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
  [extra: string]: unknown;
}

export function toUpstreamObjectReference(ctx: TenantContext, ref: ObjectReference): ObjectReference {
  const out: ObjectReference = { ...ref };
  const group = ref.apiVersion !== undefined ? splitApiVersion(ref.apiVersion).group : '';
  if (ref.apiVersion !== undefined) out.apiVersion = apiVersionToUpstream(ctx, ref.apiVersion);
  if (ref.namespace) out.namespace = toUpstreamNamespace(ctx.id, ref.namespace);
  if (ref.name && ref.kind) out.name = nameToUpstream(ctx.id, treatmentOf(ctx, group, ref.kind), ref.name);
  // A reference to a Namespace names it in `name`; some writers also set `namespace` to it.
  return out;
}

export function toTenantObjectReference(ctx: TenantContext, ref: ObjectReference): ObjectReference | undefined {
  const out: ObjectReference = { ...ref };
  let group = '';
  if (ref.apiVersion !== undefined) {
    const apiVersion = apiVersionToTenant(ctx, ref.apiVersion);
    if (apiVersion === undefined) return undefined;
    out.apiVersion = apiVersion;
    group = splitApiVersion(apiVersion).group;
  }
  if (ref.namespace) {
    const namespace = toTenantNamespace(ctx.id, ref.namespace);
    if (namespace === undefined) return undefined;
    out.namespace = namespace;
  }
  if (ref.name && ref.kind) {
    const name = nameToTenant(ctx.id, treatmentOf(ctx, group, ref.kind), ref.name);
    if (name === undefined) return undefined;
    out.name = name;
  }
  return out;
}

/** rbac/v1 Subject. */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * A subject upstream names only identities in the tenant's own `warren:<id>:`
 * space (user-names.ts, ADR 0028): a ServiceAccount becomes that space's user
 * for it, so the host ServiceAccount behind it gets no grant. A ServiceAccount
 * without a namespace takes the binding's (`bindingNamespace`, tenant terms),
 * as kube's authorizer does; with none (a ClusterRoleBinding) it stays without,
 * and binding validation refuses it (rbac-subjects.ts).
 */
export function toUpstreamSubject(ctx: TenantContext, s: Subject, bindingNamespace?: string): Subject {
  if (s.kind === 'ServiceAccount') {
    const namespace = s.namespace || bindingNamespace;
    if (!namespace) return { ...s };
    return { kind: 'User', apiGroup: RBAC_GROUP, name: toUpstreamServiceAccountUser(ctx.id, namespace, s.name) };
  }
  if (s.kind === 'Group') return { ...s, name: toUpstreamUserGroup(ctx.id, s.name) };
  // Users, and unknown subject kinds (refused upstream): either way they name nothing real.
  return { ...s, name: toUpstreamUser(ctx.id, s.name) };
}

/**
 * The inverse: undefined for a subject that is not the tenant's. The user that
 * stands for a ServiceAccount reads back as the ServiceAccount (a User subject
 * named `system:serviceaccount:<ns>:<sa>` is the same identity in kube's RBAC,
 * and reads back that way too). Legacy subjects naming the host identity in
 * the tenant's namespaces read back as well.
 */
export function toTenantSubject(ctx: TenantContext, s: Subject): Subject | undefined {
  if (s.kind === 'ServiceAccount') {
    if (!s.namespace) return { ...s };
    const namespace = toTenantNamespace(ctx.id, s.namespace);
    return namespace === undefined ? undefined : { ...s, namespace };
  }
  if (s.kind === 'User') {
    const sa = toTenantServiceAccount(ctx.id, s.name);
    if (sa && s.name.startsWith(tenantUserSpace(ctx.id))) return { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace };
  }
  const name = s.kind === 'Group' ? toTenantUserGroup(ctx.id, s.name) : toTenantUser(ctx.id, s.name);
  return name === undefined ? undefined : { ...s, name };
}

/** rbac/v1 RoleRef: a Role is in the binding's namespace; a ClusterRole is the tenant's, prefixed. */
export interface RoleRef { apiGroup: string; kind: string; name: string }

export function toUpstreamRoleRef(ctx: TenantContext, r: RoleRef): RoleRef {
  return r.kind === 'ClusterRole' ? { ...r, name: toUpstreamClusterName(ctx.id, r.name) } : { ...r };
}

export function toTenantRoleRef(ctx: TenantContext, r: RoleRef): RoleRef | undefined {
  if (r.kind !== 'ClusterRole') return { ...r };
  const name = toTenantClusterName(ctx.id, r.name);
  return name === undefined ? undefined : { ...r, name };
}
