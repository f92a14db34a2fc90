// A tenant's resource request (parsed RequestInfo) → the upstream path and
// query, or the ApiError the tenant should see. Refusals name the resource as
// the tenant wrote it; nothing here ever shows a prefix.
import { ApiError, forbidden, methodNotAllowed } from '../api-error.ts';
import type { RequestInfo } from '../request-info.ts';
import { classify, type ResourceClass } from './resource-classes.ts';
import { isTenantCrdGroupOf, type TenantContext } from './tenant-context.ts';
import { toTenantCrdName, toUpstreamClusterName, toUpstreamCrdName, toUpstreamGroup, toUpstreamNamespace } from './names.ts';
import { toUpstreamLabelSelector } from './label-selector-translation.ts';
import { toUpstreamRoleLabelKey } from './cluster-role-labels.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
import { toUpstreamFieldSelector } from './field-selector-translation.ts';
import { escapeFieldValue } from '../selectors/index.ts';

export interface ForwardedRequest {
  action: 'forward';
  verb: string;
  /** Percent-encoded upstream path, always in the modern form (no legacy /watch/). */
  path: string;
  query: URLSearchParams;
  class: ResourceClass;
  /** Upstream spellings, for the object translator and the log. */
  group: string;
  namespace: string;
  name: string;
  /** Does the request address namespaced objects (so bodies get a namespace)? */
  namespaced: boolean;
}

export interface GatewayAnswered {
  action: 'answer';
  verb: string;
  group: string;
  /** `resource` or `resource/subresource` (serviceaccounts/token). */
  resource: string;
  /** For an answered subresource: the object's namespace and name, in tenant terms. */
  namespace?: string;
  name?: string;
}

/** A read of a view the gateway builds itself (nodes, ADR 30): never forwarded. */
export interface ViewRead {
  action: 'view';
  verb: string;
  resource: string;
  name: string;
}

export type TranslatedRequest = ForwardedRequest | GatewayAnswered | ViewRead;

export const READ_ONLY_VIEW = 'the resource is a read-only view for tenants';

const READ_VERBS = new Set(['get', 'list', 'watch']);
const COLLECTION_VERBS = new Set(['list', 'watch', 'deletecollection']);

const notFoundResource = (): ApiError => new ApiError('NotFound', 'the server could not find the requested resource');

function refuse(ctx: TenantContext, info: RequestInfo, why: string): ApiError {
  const subject: Parameters<typeof forbidden>[0] = { resource: info.resource, verb: info.verb };
  if (info.apiGroup) subject.group = info.apiGroup;
  if (info.name) subject.name = info.name;
  if (ctx.user !== undefined) subject.user = ctx.user;
  if (info.namespace && info.resource !== 'namespaces') subject.namespace = info.namespace;
  return forbidden(subject, why);
}

function encode(segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s)).join('/');
}

interface Target { group: string; namespace: string; name: string; namespaced: boolean; prefixedNames: boolean; crdNames?: boolean }

/** Where the request lands upstream, by class. */
function targetOf(ctx: TenantContext, info: RequestInfo, cls: ResourceClass, namespacedRow: boolean): Target {
  const id = ctx.id;
  const isNamespaceObject = info.apiGroup === '' && info.resource === 'namespaces';
  if (isNamespaceObject) {
    const name = info.name ? toUpstreamClusterName(id, info.name) : '';
    return { group: '', namespace: name, name, namespaced: false, prefixedNames: true };
  }
  if (cls === 'tenant-custom') {
    const group = toUpstreamGroup(id, info.apiGroup);
    if (info.namespace) return { group, namespace: toUpstreamNamespace(id, info.namespace), name: info.name, namespaced: true, prefixedNames: false };
    // Without a namespace this is a cluster-scoped custom resource, or an all-namespaces collection.
    return { group, namespace: '', name: info.name ? toUpstreamClusterName(id, info.name) : '', namespaced: false, prefixedNames: true };
  }
  const namespace = info.namespace ? toUpstreamNamespace(id, info.namespace) : '';
  if (namespacedRow) return { group: info.apiGroup, namespace, name: info.name, namespaced: true, prefixedNames: false };
  if (cls === 'tenant-cluster-scoped') {
    const isCrd = info.apiGroup === 'apiextensions.k8s.io' && info.resource === 'customresourcedefinitions';
    const name = info.name ? (isCrd ? toUpstreamCrdName(id, info.name) : toUpstreamClusterName(id, info.name)) : '';
    return { group: info.apiGroup, namespace: '', name, namespaced: false, prefixedNames: true, crdNames: isCrd };
  }
  return { group: info.apiGroup, namespace: '', name: info.name, namespaced: false, prefixedNames: false };
}

function upstreamPath(info: RequestInfo, t: Target, collectionWatch: boolean): string {
  const segments = info.apiPrefix === 'api' ? ['api', info.apiVersion] : ['apis', t.group, info.apiVersion];
  if (info.apiGroup === '' && info.resource === 'namespaces') {
    segments.push('namespaces');
    if (t.name && !collectionWatch) segments.push(t.name);
  } else {
    if (t.namespace && t.namespaced) segments.push('namespaces', t.namespace);
    segments.push(info.resource);
    if (t.name && !collectionWatch) segments.push(t.name);
  }
  if (info.subresource) segments.push(info.subresource);
  return `/${encode(segments)}`;
}

/**
 * Translates a tenant resource request. Throws ApiError: 404 for a resource the
 * table does not know, 403 for a denied one (or a write to a shared one).
 */
export function translateRequest(ctx: TenantContext, info: RequestInfo, query: URLSearchParams): TranslatedRequest {
  if (!info.isResourceRequest) throw new TypeError('translateRequest takes resource requests; discovery is built by the gateway');
  // `/apis/<group>/<v>/watch` names no resource; forwarded, it would become a discovery read upstream (found by fuzzing).
  if (info.resource === '') throw notFoundResource();
  const custom = isTenantCrdGroupOf(ctx, info.apiGroup);
  const c = classify(info.apiGroup, info.resource, custom);
  if (c.class !== 'tenant-custom' && c.row === undefined) throw notFoundResource();
  if (c.class === 'denied') throw refuse(ctx, info, 'the resource is not available to tenants');
  if (c.class === 'gateway-answered') return { action: 'answer', verb: info.verb, group: info.apiGroup, resource: info.resource };
  if (c.class === 'shared-read-only' && !READ_VERBS.has(info.verb)) throw refuse(ctx, info, 'the resource is shared and read-only');
  if (c.class !== 'tenant-custom' && info.subresource && c.row.answeredSubresources?.includes(info.subresource)) {
    // kube serves only create on these (TokenRequest): anything else is 405, as there.
    if (info.verb !== 'create' || !info.namespace || !info.name) throw methodNotAllowed();
    return { action: 'answer', verb: info.verb, group: info.apiGroup, resource: `${info.resource}/${info.subresource}`, namespace: info.namespace, name: info.name };
  }
  if (c.class === 'tenant-view') {
    if (info.subresource) throw refuse(ctx, { ...info, resource: `${info.resource}/${info.subresource}` }, 'the subresource is not available to tenants');
    if (!READ_VERBS.has(info.verb)) throw refuse(ctx, info, READ_ONLY_VIEW);
    return { action: 'view', verb: info.verb, resource: info.resource, name: info.name };
  }
  if (c.class !== 'tenant-custom' && info.subresource && c.row.deniedSubresources?.includes(info.subresource)) {
    throw refuse(ctx, { ...info, resource: `${info.resource}/${info.subresource}` }, 'the subresource is not available to tenants');
  }
  // Engine-managed objects (bindings, Works): readable, never written by a tenant, status included.
  if (c.class !== 'tenant-custom' && c.row.readOnly && !READ_VERBS.has(info.verb)) {
    throw refuse(ctx, info.subresource ? { ...info, resource: `${info.resource}/${info.subresource}` } : info, c.row.readOnly);
  }
  const namespacedRow = c.class !== 'tenant-custom' && c.row.namespaced;
  // A namespaced resource without a namespace only exists as an all-namespaces collection,
  // which kube serves for list and watch only (its installer registers no DELETE there).
  if (namespacedRow && !info.namespace && (!COLLECTION_VERBS.has(info.verb) || info.verb === 'deletecollection')) {
    if (info.name) throw notFoundResource();
    throw methodNotAllowed();
  }

  const t = targetOf(ctx, info, c.class, namespacedRow);
  // Legacy `/watch/.../<name>` becomes a collection watch on metadata.name, as kube-apiserver does.
  const namedWatch = info.verb === 'watch' && info.name !== '' && info.subresource === '';
  const out = new URLSearchParams(query);
  if (info.verb === 'watch') out.set('watch', 'true');

  // Cluster-wide shared objects belong to no tenant; anything else without a namespace spans tenants.
  const spansTenants = !t.namespace && !(c.class === 'shared-read-only' && !t.namespaced);
  if (COLLECTION_VERBS.has(info.verb) || query.has('labelSelector')) {
    const selector = toUpstreamLabelSelector(ctx.id, query.get('labelSelector') ?? '', {
      requireTenantLabel: spansTenants && COLLECTION_VERBS.has(info.verb),
      ...(info.apiGroup === RBAC_GROUP && info.resource === 'clusterroles' ? { mapKey: (key: string) => toUpstreamRoleLabelKey(ctx.id, key) } : {}),
    });
    if (selector) out.set('labelSelector', selector);
    else out.delete('labelSelector');
  }
  const fieldSelector = query.get('fieldSelector');
  if (fieldSelector !== null || namedWatch) {
    const options = t.crdNames ? { prefixedNames: true, names: { toUpstream: toUpstreamCrdName, toTenant: toTenantCrdName } } : { prefixedNames: t.prefixedNames };
    let translated = fieldSelector ? toUpstreamFieldSelector(ctx.id, fieldSelector, options) : '';
    if (namedWatch) translated = [translated, `metadata.name=${escapeFieldValue(t.name)}`].filter(Boolean).join(',');
    out.set('fieldSelector', translated);
  }
  return {
    action: 'forward', verb: info.verb, path: upstreamPath(info, t, namedWatch), query: out,
    class: c.class, group: t.group, namespace: t.namespace, name: t.name, namespaced: t.namespaced,
  };
}
