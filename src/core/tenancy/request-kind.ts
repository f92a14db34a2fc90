// The request decides what a written object is, never the body: kind, group
// and version come from the URL (the resource table, or the tenant's CRD group)
// and the body is made to agree before anything translates it. A body that
// leaves them out gets them filled, as kube-apiserver's decoder does with the
// path's defaults; a body that names something else is refused with kube's
// words (checked on a real 1.20 kube-apiserver). Without this, a body with no
// `kind` skipped every kind-specific rule of the translator (a RoleBinding's
// subjects, a Namespace's Pod Security labels, a CRD's webhook service).
import { ApiError, badRequest, invalid } from '../api-error.ts';
import type { RequestInfo } from '../request-info.ts';
import type { KubeObject } from '../types.ts';
import { classify } from './resource-classes.ts';
import { isTenantCrdGroupOf, type TenantContext } from './tenant-context.ts';

export interface RequestKind {
  /** Tenant spelling ('' for core). */
  group: string;
  version: string;
  /** undefined for a tenant's custom resource: only its CRD knows the kind, and the upstream checks it (422). */
  kind: string | undefined;
  /** Versions a body may name besides `version` (an Eviction is accepted as policy/v1 and v1beta1). */
  alsoVersions?: readonly string[];
}

/** Subresources whose body is the parent object itself. */
const PARENT_BODY = new Set(['', 'status', 'finalize', 'ephemeralcontainers', 'resize']);
const SUBRESOURCE_BODY: Readonly<Record<string, RequestKind>> = {
  scale: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  eviction: { group: 'policy', version: 'v1', kind: 'Eviction', alsoVersions: ['v1beta1'] },
};

/**
 * What a write to this request's resource must carry, or a 405 for a
 * subresource the gateway cannot type (it never forwards a body it cannot judge).
 */
export function requestKindOf(ctx: TenantContext, info: RequestInfo): RequestKind {
  const sub = SUBRESOURCE_BODY[info.subresource];
  if (sub) return sub;
  if (!PARENT_BODY.has(info.subresource)) throw new ApiError('MethodNotAllowed', `the server does not allow this method on the requested resource (${info.resource}/${info.subresource})`);
  if (isTenantCrdGroupOf(ctx, info.apiGroup)) return { group: info.apiGroup, version: info.apiVersion, kind: undefined };
  const c = classify(info.apiGroup, info.resource, false);
  if (c.class === 'tenant-custom' || !c.row) throw new ApiError('NotFound', 'the server could not find the requested resource');
  return { group: info.apiGroup, version: info.apiVersion, kind: c.row.kind };
}

export const apiVersionOf = (group: string, version: string): string => (group ? `${group}/${version}` : version);

/** How a mismatch is reported: kube refuses a body with 400, a patch whose result changed type with 422. */
export type BodySource = 'body' | 'patch';

function mismatch(source: BodySource, message: string, kind: string | undefined, name: string): ApiError {
  if (source === 'body') return badRequest(message);
  return invalid({ kind: kind ?? '', name }, [{ type: 'FieldValueInvalid', field: 'patch', message }]);
}

/**
 * Makes `obj.apiVersion` and `obj.kind` the request's (in place): filled when
 * absent, refused when they differ. Tenant spelling on both sides.
 */
export function settleBodyKind(obj: KubeObject, expected: RequestKind, source: BodySource = 'body'): void {
  const name = typeof obj.metadata?.name === 'string' ? obj.metadata.name : '';
  const wanted = apiVersionOf(expected.group, expected.version);
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = wanted;
  const accepted = [expected.version, ...(expected.alsoVersions ?? [])].map((v) => apiVersionOf(expected.group, v));
  if (!accepted.includes(obj.apiVersion)) {
    throw mismatch(source, `the API version in the data (${obj.apiVersion}) does not match the expected API version (${wanted})`, expected.kind, name);
  }
  if (obj.kind === undefined || obj.kind === '') {
    if (expected.kind === undefined) throw badRequest('Object \'Kind\' is missing in the body of the request');
    obj.kind = expected.kind;
  }
  if (expected.kind !== undefined && obj.kind !== expected.kind) {
    throw mismatch(source, `${obj.kind} in version "${expected.version}" cannot be handled as a ${expected.kind}`, expected.kind, name);
  }
}

export interface MetadataTarget {
  /** Tenant namespace of the request ('' when the resource is cluster-scoped). */
  namespace: string;
  /** Name in the URL ('' for a create on the collection). */
  name: string;
  /** create: kube's create wording; update: names are required; apply and patch: a missing name is the URL's. */
  verb: 'create' | 'update' | 'apply' | 'patch';
}

/**
 * Makes the body's namespace and name the URL's (in place), with kube's 400s
 * when they disagree. A cluster-scoped object loses any namespace, as in kube.
 */
export function settleBodyMetadata(obj: KubeObject, target: MetadataTarget): void {
  const meta = obj.metadata ?? (obj.metadata = {});
  const namespace = meta.namespace ?? '';
  if (!target.namespace) delete meta.namespace;
  else if (namespace === '') meta.namespace = target.namespace;
  else if (namespace !== target.namespace) {
    throw badRequest(target.verb === 'create'
      ? 'the namespace of the provided object does not match the namespace sent on the request'
      : `the namespace of the object (${namespace}) does not match the namespace on the request (${target.namespace})`);
  }
  if (!target.name) return;
  const name = meta.name ?? '';
  if (name === '') {
    if (target.verb === 'update') throw badRequest(`the name of the object (${target.name} based on URL) was undeterminable: name must be provided`);
    meta.name = target.name;
  } else if (name !== target.name) {
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${target.name})`);
  }
}
