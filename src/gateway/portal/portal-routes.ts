// The provisioning API for portals, on the gateway (OpenAPI: portal-openapi.ts):
//   GET    /warren/v1/tenants?limit=&continue=  → 200 TenantList (paged as kube pages lists)
//   PUT    /warren/v1/tenants/<name>  {spec}    → 201 created / 200 updated or unchanged (idempotent; waits for Ready)
//   GET    /warren/v1/tenants/<name>            → 200 Tenant, ETag "<resourceVersion>"
//   DELETE /warren/v1/tenants/<name>            → 202 {name, phase: "Terminating"}
//   GET    /warren/v1/openapi.json              → the OpenAPI document
// Only platform admins; errors are Kubernetes Status objects. Everything a
// request asks is checked before anything is written (portal-request.ts), so
// a 400 or 422 leaves nothing behind; If-Match / metadata.resourceVersion make
// a write conditional (409 Conflict when the tenant moved on).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, methodNotAllowed, notFound } from '../../core/api-error.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { provisionTenant } from '../../tenants/provision.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import type { SigningKeySet } from '../../tenants/credentials/signing-keys.ts';
import { readRequestObject } from '../forward/request-body.ts';
import { sendJsonBody } from '../respond.ts';
import { platformAdminOf } from './platform-admin.ts';
import { PORTAL_OPENAPI_PATH, portalOpenApi } from './portal-openapi.ts';
import { decodePut, ifMatchVersion, listQuery } from './portal-request.ts';
import { checkTenantName } from '../../tenants/tenant-name.ts';
import { levelled } from '../../observability/log-line.ts';

const TENANTS = '/warren/v1/tenants';
const SUBJECT = { group: 'tenancy.warren.dev', resource: 'tenants' };

export function isPortalPath(path: string): boolean {
  return path === TENANTS || path.startsWith(`${TENANTS}/`) || path === PORTAL_OPENAPI_PATH;
}

function summary(tenant: Tenant): Record<string, unknown> {
  return {
    name: tenant.metadata.name,
    id: tenant.status?.id,
    phase: tenant.status?.phase ?? 'Pending',
    resourceVersion: tenant.metadata.resourceVersion,
    spec: tenant.spec ?? {},
    conditions: tenant.status?.conditions ?? [],
  };
}

const etag = (tenant: Tenant): Record<string, string> => (tenant.metadata.resourceVersion ? { ETag: `"${tenant.metadata.resourceVersion}"` } : {});

/** An upstream answer that is not what was hoped for, as the Status it carries. */
function upstreamError(status: number, body: unknown, name?: string): ApiError {
  if (status === 404) return notFound({ ...SUBJECT, ...(name ? { name } : {}) });
  const s = body as { reason?: string; message?: string } | undefined;
  const reason = s?.reason && s.reason in { Conflict: 1, Gone: 1, Expired: 1, BadRequest: 1, Invalid: 1 } ? s.reason : 'InternalError';
  return new ApiError(reason as 'Conflict', typeof s?.message === 'string' ? s.message : `HTTP ${status}`);
}

export interface PortalDeps { upstream: Upstream; keys: SigningKeySet; log: (line: string) => void; version?: string }

export async function servePortal(req: IncomingMessage, res: ServerResponse, path: string, deps: PortalDeps): Promise<void> {
  const admin = await platformAdminOf(req, deps.keys);
  const method = (req.method ?? 'GET').toUpperCase();
  const search = new URL(req.url ?? '/', 'https://portal.invalid').searchParams;
  if (path === PORTAL_OPENAPI_PATH) {
    if (method !== 'GET') throw methodNotAllowed();
    sendJsonBody(res, 200, portalOpenApi(deps.version ?? 'v1'));
    return;
  }
  if (path === TENANTS || path === `${TENANTS}/`) {
    if (method !== 'GET') throw methodNotAllowed();
    const query = listQuery(search);
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.continue !== undefined) params.set('continue', query.continue);
    const answer = await deps.upstream.request<{ items?: Tenant[]; metadata?: { continue?: string; resourceVersion?: string } }>('GET', `${TENANTS_PATH}${params.size > 0 ? `?${params}` : ''}`);
    if (answer.status !== 200) throw upstreamError(answer.status, answer.body);
    const meta = answer.body.metadata ?? {};
    sendJsonBody(res, 200, {
      kind: 'TenantList',
      metadata: { ...(meta.continue ? { continue: meta.continue } : {}), ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}) },
      items: (answer.body.items ?? []).map(summary),
    });
    return;
  }
  const name = decodeURIComponent(path.slice(TENANTS.length + 1).replace(/\/$/, ''));
  if (name.includes('/')) throw new ApiError('NotFound', 'the server could not find the requested resource');
  checkTenantName(name);
  if (method === 'PUT') {
    const request = decodePut(name, await readRequestObject(req), req.headers['if-match']);
    deps.log(levelled('info', `portal: ${admin} provisions tenant ${name}`, { event: 'portal-provision', admin, tenant: name }));
    const result = await provisionTenant({ upstream: deps.upstream, name, spec: request.spec, wait: true, ...(request.resourceVersion ? { resourceVersion: request.resourceVersion } : {}) });
    sendJsonBody(res, result.created ? 201 : 200, { ...summary(result.tenant), kubeconfig: result.adminKubeconfig }, etag(result.tenant));
    return;
  }
  if (method === 'GET') {
    const answer = await deps.upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
    if (answer.status !== 200) throw upstreamError(answer.status, answer.body, name);
    sendJsonBody(res, 200, summary(answer.body), etag(answer.body));
    return;
  }
  if (method === 'DELETE') {
    const version = ifMatchVersion(req.headers['if-match']);
    const options = version ? { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: version } } : undefined;
    const answer = await deps.upstream.request('DELETE', `${TENANTS_PATH}/${name}`, options);
    if (answer.status !== 200 && answer.status !== 202) throw upstreamError(answer.status, answer.body, name);
    deps.log(levelled('info', `portal: ${admin} deleted tenant ${name}`, { event: 'portal-delete', admin, tenant: name }));
    sendJsonBody(res, 202, { name, phase: 'Terminating' });
    return;
  }
  throw methodNotAllowed();
}
