// The last check before a request leaves for the upstream, written apart from
// the translator on purpose: it re-parses the upstream path itself and shares
// none of the translator's mapping functions, so one bug cannot pass both. A
// refusal here means the translator is wrong; the gateway logs it as a
// security event. It allows exactly:
// - a namespace that starts with the tenant prefix;
// - a cluster-scoped name (in the path, or in the body of a create) that does;
// - a read of a shared read-only resource;
// - a collection read or delete with no namespace, only when the label
//   selector requires `tenancy.warren.dev/tenant=<id>` and nothing looser;
// - a written object (create, update, apply, and the final object of a patch
//   the gateway applied) whose apiVersion and kind are the path's, whose
//   namespace and name are the path's, which carries the tenant label, and
//   whose every reference is provably the tenant's (guard-body.ts).
// Discovery and OpenAPI reads are allowed; any other non-resource path is not.
import { ApiError } from '../api-error.ts';
import { parseRequestInfo } from '../request-info.ts';
import { isObject } from '../types.ts';
import { RESOURCE_CLASS_ROWS } from './resource-classes.ts';
import { bodyRefusal } from './guard-body.ts';

export interface UpstreamRequestForGuard {
  method: string;
  /** Percent-encoded path, as it will be sent. */
  path: string;
  query: URLSearchParams;
  /** Parsed JSON body of a create/update/apply, or the final object of a patch, if any. */
  body?: unknown;
  /** The Pod Security level the tenant's Namespaces must carry (checked on Namespace bodies). */
  podSecurity?: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const LABEL_KEY = 'tenancy.warren.dev/tenant';
const READS = new Set(['get', 'list', 'watch']);
const SHARED = new Set(RESOURCE_CLASS_ROWS.filter((r) => r.class === 'shared-read-only' && !r.namespaced).map((r) => `${r.group}/${r.resource}`));
const DISCOVERY = /^\/(api|apis(\/[^/]+){0,2}|api\/v1|openapi\/v2|openapi\/v3(\/.*)?|version)\/?$/;

function refused(tenantId: string, why: string, req: UpstreamRequestForGuard): ApiError {
  return new ApiError('Forbidden', `isolation guard refused ${req.method} ${req.path} for tenant ${tenantId}: ${why}`);
}

/** Requires exactly one selector term `tenancy.warren.dev/tenant=<id>` (or `==`), checked on the raw text. */
function requiresTenantLabel(tenantId: string, selector: string | null): boolean {
  if (!selector) return false;
  const terms = selector.split(',').map((t) => t.trim());
  return terms.some((t) => t === `${LABEL_KEY}=${tenantId}` || t === `${LABEL_KEY}==${tenantId}`);
}

function bodyMeta(body: unknown): Record<string, unknown> | undefined {
  return isObject(body) && isObject(body.metadata) ? body.metadata : undefined;
}

export function guardUpstreamRequest(tenantId: string, req: UpstreamRequestForGuard): ApiError | null {
  if (!/^[a-z][a-z0-9]{5}$/.test(tenantId)) return refused(tenantId, 'malformed tenant id', req);
  const prefix = `${tenantId}-`;
  const owned = (value: unknown): boolean => typeof value === 'string' && value.length > prefix.length && value.startsWith(prefix);
  let info;
  try {
    info = parseRequestInfo(req.method, req.path, req.query);
  } catch {
    return refused(tenantId, 'unparseable path', req);
  }
  if (!info.isResourceRequest) {
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    return isRead && DISCOVERY.test(req.path) ? null : refused(tenantId, 'non-resource request', req);
  }
  const meta = bodyMeta(req.body);
  if (meta && meta.namespace !== undefined && meta.namespace !== '' && !owned(meta.namespace)) return refused(tenantId, 'body namespace is not the tenant\'s', req);
  if (req.body !== undefined && BODY_METHODS.has(req.method.toUpperCase())) {
    const why = bodyRefusal({
      tenantId, group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource,
      namespace: info.namespace, name: info.name, ...(req.podSecurity !== undefined ? { podSecurity: req.podSecurity } : {}),
    }, req.body);
    if (why) return refused(tenantId, why, req);
  }

  if (info.namespace) return owned(info.namespace) ? null : refused(tenantId, 'namespace is not the tenant\'s', req);
  if (SHARED.has(`${info.apiGroup}/${info.resource}`)) return READS.has(info.verb) ? null : refused(tenantId, 'write to a shared resource', req);
  // A CRD is named `<plural>.<group>`: the tenant's own are those whose group carries the prefix.
  const isCrd = info.apiGroup === 'apiextensions.k8s.io' && info.resource === 'customresourcedefinitions';
  const ownedName = (name: unknown): boolean => (isCrd && typeof name === 'string' ? owned(name.slice(name.indexOf('.') + 1)) && name.indexOf('.') > 0 : owned(name));
  if (info.name) return ownedName(info.name) ? null : refused(tenantId, 'cluster-scoped name is not the tenant\'s', req);
  if (info.verb === 'create') return meta && ownedName(meta.name ?? meta.generateName) ? null : refused(tenantId, 'created name is not the tenant\'s', req);
  if (info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection') {
    return requiresTenantLabel(tenantId, req.query.get('labelSelector')) ? null : refused(tenantId, 'collection without the tenant label', req);
  }
  return refused(tenantId, `verb ${info.verb} without a tenant namespace or name`, req);
}
