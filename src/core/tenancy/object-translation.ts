// Whole objects between tenant and upstream: apiVersion, metadata (namespace,
// name, generateName, the tenant label, ownerReferences, managedFields) and the
// kind's own references (kind-converters.ts). Both directions MUTATE the object
// they are given and return it: the gateway parses a body, translates it in
// place and serialises it, so a large list is never held twice. Pass a copy if
// you still need the original.
import { checkPrefixedName, fitGenerateName, nameRuleOf } from './prefixed-name-check.ts';
import type { KubeObject } from '../types.ts';
import { KIND_CONVERTERS } from './kind-converters.ts';
import { apiVersionToTenant, apiVersionToUpstream, treatmentOf, type KindTreatment } from './kind-treatment.ts';
import { splitApiVersion, toTenantClusterName, toTenantCrdName, toTenantNamespace, toUpstreamClusterName, toUpstreamCrdName, toUpstreamNamespace } from './names.ts';
import { toTenantOwnerReference, toUpstreamOwnerReference } from './references.ts';
import { addPrefix, stripPrefix } from './tenant-id.ts';
import { labelObject, stripTenantLabelFromManagedFields, unlabelObject } from './tenant-label.ts';
import type { TenantContext } from './tenant-context.ts';
import { metadataShapeError } from './object-shape.ts';
import { lastAppliedToTenant } from './last-applied.ts';
import { badRequest } from '../api-error.ts';
import { redactServiceAccountToken } from './service-account-tokens.ts';

export interface ToUpstreamOptions {
  /** Scope from the request path, for custom kinds whose CRD the context cannot tell. */
  namespaced?: boolean;
  /**
   * The kind the request writes (tenant spelling), from its URL: the gateway
   * always passes it, so the body's own apiVersion/kind never choose the rules
   * (request-kind.ts). Absent only for objects Warren builds itself.
   */
  type?: { group: string; kind: string | undefined };
}

function treatment(ctx: TenantContext, group: string, kind: string, namespaced: boolean | undefined): KindTreatment {
  const t = treatmentOf(ctx, group, kind);
  if (!t.customGroup || namespaced === undefined || ctx.customKindNamespaced?.(group, kind) !== undefined) return t;
  return { ...t, namespaced, name: namespaced ? 'keep' : 'prefix' };
}

/** Tenant object → upstream. Throws ApiError 422 for a namespace over the length budget, 400 for malformed metadata. */
export function toUpstreamObject(ctx: TenantContext, obj: KubeObject, options: ToUpstreamOptions = {}): KubeObject {
  const malformed = metadataShapeError(obj);
  if (malformed) throw badRequest(malformed);
  const id = ctx.id;
  const apiVersion = obj.apiVersion ?? '';
  const group = options.type ? options.type.group : splitApiVersion(apiVersion).group;
  const kind = (options.type ? options.type.kind : obj.kind) ?? '';
  const t = treatment(ctx, group, kind, options.namespaced);
  const meta = obj.metadata ?? (obj.metadata = {});
  if (obj.apiVersion !== undefined) obj.apiVersion = apiVersionToUpstream(ctx, apiVersion);

  const rule = t.name === 'keep' ? undefined : nameRuleOf(group, kind);
  if (rule) {
    const refused = checkPrefixedName(rule, { kind, group, name: meta.name, generateName: meta.generateName });
    if (refused) throw refused;
  }
  if (t.namespaced && meta.namespace) meta.namespace = toUpstreamNamespace(id, meta.namespace);
  if (t.name === 'prefix') {
    if (meta.name) meta.name = toUpstreamClusterName(id, meta.name);
    if (meta.generateName) meta.generateName = addPrefix(id, fitGenerateName(rule ?? 'subdomain', meta.generateName));
  } else if (t.name === 'crd' && meta.name) {
    meta.name = toUpstreamCrdName(id, meta.name);
  }
  labelObject(id, obj);
  if (meta.ownerReferences) meta.ownerReferences = meta.ownerReferences.map((r) => toUpstreamOwnerReference(ctx, r));
  for (const entry of meta.managedFields ?? []) {
    if (entry.apiVersion) entry.apiVersion = apiVersionToUpstream(ctx, entry.apiVersion);
  }
  const converter = KIND_CONVERTERS.get(`${group}/${kind}`);
  try {
    converter?.in(ctx, obj);
  } catch (err) {
    // The converters walk kind-specific fields (subjects, roleRef, spec...) that a
    // tenant body may shape any way; a TypeError there is a malformed body, a 400.
    if (err instanceof TypeError) throw badRequest(`the ${kind} could not be read: ${err.message}`);
    throw err;
  }
  return obj;
}

/**
 * Upstream object → tenant view, or undefined when the object is not this
 * tenant's (foreign namespace, name or group): the caller drops it.
 */
export function toTenantObject(ctx: TenantContext, obj: KubeObject): KubeObject | undefined {
  // Malformed metadata cannot be shown to be this tenant's: dropped like a foreign object.
  if (metadataShapeError(obj)) return undefined;
  const id = ctx.id;
  const kind = obj.kind ?? '';
  let group = '';
  if (obj.apiVersion !== undefined) {
    const apiVersion = apiVersionToTenant(ctx, obj.apiVersion);
    if (apiVersion === undefined) return undefined;
    obj.apiVersion = apiVersion;
    group = splitApiVersion(apiVersion).group;
  }
  const meta = obj.metadata ?? (obj.metadata = {});
  // Upstream objects say their scope themselves: a namespaced object has a namespace.
  const t = treatment(ctx, group, kind, meta.namespace ? true : meta.name !== undefined ? false : undefined);
  if (meta.namespace) {
    const namespace = toTenantNamespace(id, meta.namespace);
    if (namespace === undefined) return undefined;
    meta.namespace = namespace;
  }
  if (t.name === 'prefix' || t.name === 'crd') {
    if (meta.name !== undefined) {
      // A null name (the shape check lets null stand for absent) carries no prefix: not this tenant's.
      if (typeof meta.name !== 'string') return undefined;
      const name = t.name === 'prefix' ? toTenantClusterName(id, meta.name) : toTenantCrdName(id, meta.name);
      if (name === undefined) return undefined;
      meta.name = name;
    }
    if (meta.generateName) {
      const generateName = stripPrefix(id, meta.generateName);
      if (generateName === undefined) delete meta.generateName;
      else meta.generateName = generateName;
    }
  }
  unlabelObject(obj);
  // By shape, before any kind-specific step: list items carry no kind (ADR 0028).
  redactServiceAccountToken(obj, meta.namespace);
  lastAppliedToTenant(ctx, obj, toTenantObject);
  if (meta.ownerReferences) {
    const refs = meta.ownerReferences.map((r) => toTenantOwnerReference(ctx, r)).filter((r) => r !== undefined);
    if (refs.length > 0) meta.ownerReferences = refs;
    else delete meta.ownerReferences;
  }
  stripTenantLabelFromManagedFields(obj);
  if (meta.managedFields) {
    // An entry whose apiVersion names a group the tenant may not see is dropped, not shown.
    meta.managedFields = meta.managedFields.filter((entry) => {
      if (!entry.apiVersion) return true;
      const apiVersion = apiVersionToTenant(ctx, entry.apiVersion);
      if (apiVersion !== undefined) entry.apiVersion = apiVersion;
      return apiVersion !== undefined;
    });
  }
  const converter = KIND_CONVERTERS.get(`${group}/${kind}`);
  try {
    if (converter && !converter.out(ctx, obj)) return undefined;
  } catch (err) {
    // A shape no apiserver would send: not provably this tenant's, so not shown.
    if (err instanceof TypeError) return undefined;
    throw err;
  }
  return obj;
}
