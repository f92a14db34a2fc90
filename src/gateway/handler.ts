// The gateway's request chain, written once, in order. Why each step sits where it does:
//  1. recover: every failure, ours or upstream's, leaves as a Status in tenant terms.
//  2. strip client identity headers: before anything could read a forged
//     Impersonate-* or X-Remote-* header.
//  3. public endpoints (health, version, JWKS): answered without credentials, as
//     kube-apiserver does, and before authentication so probes never need one.
//  4. authenticate: certificate or bearer token → tenant, user, groups; the
//     tenant must exist and the credential must postdate its revocation point.
//  5. parse request info: in the tenant's terms, with the same parser the
//     embedded apiserver uses.
//  6. authorize: the tenant's own RBAC, evaluated by the gateway; the upstream
//     never sees tenant users.
//  7. admission: a suspended tenant may read, not write.
//  8. gateway-answered requests: discovery, OpenAPI, access reviews.
//  9. translate: path, query, selectors and body to upstream terms.
// 10. guard: an independent re-check of the upstream request, just before it
//     is sent; a refusal here is a translator bug and a security event.
// 11. proxy: forward with Warren's credential; translate the response or stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, toApiError } from '../core/api-error.ts';
import { parseRequestInfo, type RequestInfo } from '../core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../core/tenancy/request-translation.ts';
import { guardUpstreamRequest } from '../core/tenancy/isolation-guard.ts';
import type { TenantContext } from '../core/tenancy/tenant-context.ts';
import { setIdentity, type Identity } from './identity.ts';
import type { TenantDirectory, TenantInfo } from './tenant-directory.ts';
import type { TenantPolicies } from './authz/tenant-policies.ts';
import { authorizeRequest } from './authz/authorize-request.ts';
import { admitRequest } from './admission/admit-request.ts';
import { answerAccessReview } from './answered/access-reviews.ts';
import type { DiscoveryService } from './answered/discovery.ts';
import type { OpenApiService } from './answered/openapi.ts';
import { sendGatewayError, sendJsonBody } from './respond.ts';
import type { Forwarder } from './forward/forwarder.ts';
import { stripIdentityHeaders } from './authn/strip-identity-headers.ts';
import type { SecurityLog } from './security-log.ts';
import { splitTenantPath } from './tenant-url.ts';
import { isPortalPath } from './portal/portal-routes.ts';

export interface GatewayDeps {
  authenticate(req: IncomingMessage): Promise<Identity>;
  tenants: TenantDirectory;
  policies: TenantPolicies;
  discovery: DiscoveryService;
  openapi: OpenApiService;
  forwarder: Forwarder;
  /** The platform-admin provisioning API (portal-routes.ts). */
  portal(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** Tenant-wide quota at creation (403 "exceeded quota"). */
  checkQuota(tenant: TenantInfo, info: RequestInfo, fwd: ForwardedRequest): Promise<void>;
  /** All-namespaces and cluster-scoped reads answered from the shared watch cache; false = forward. */
  serveFromCache(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<boolean>;
  version(): Promise<unknown>;
  jwks(): unknown;
  ready(): boolean;
  security: SecurityLog;
}

const HEALTH = /^\/(healthz|livez|readyz)(\/[a-z-]+)?\/?$/;

export function createGatewayHandler(deps: GatewayDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let tenantId: string | undefined;
    handle(deps, req, res, (id) => { tenantId = id; }).catch((err: unknown) => sendGatewayError(res, toApiError(err), tenantId));
  };
}

async function handle(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, noteTenant: (id: string) => void): Promise<void> {
  stripIdentityHeaders(req);
  const url = scopedUrl(req);
  if (await servePublic(deps, req, res, url.pathname)) return;
  // The provisioning API answers platform admins, never tenants: it sits before tenant authentication.
  if (isPortalPath(url.pathname)) {
    await deps.portal(req, res, url.pathname);
    return;
  }
  const { ctx, identity, info } = await admit(deps, req, url, noteTenant);
  if (!info.isResourceRequest) {
    if (url.pathname.startsWith('/openapi/')) {
      await deps.openapi.serve(req, res, ctx, url.pathname);
      return;
    }
    await deps.discovery.serve(req, res, ctx, info, url.pathname);
    return;
  }
  const translated = translateRequest(ctx, info, url.searchParams);
  if (translated.action === 'answer') {
    sendJsonBody(res, 201, await answerAccessReview(req, identity, deps.policies.indexFor(identity.tenantId), translated.resource));
    return;
  }
  await forward(deps, req, res, ctx, info, translated);
}

const scopes = new WeakMap<IncomingMessage, string>();

/**
 * The request URL with a tenant base path (/tenants/<id>/...) removed; the id is
 * remembered for admit() to check against the authenticated tenant.
 */
export function scopedUrl(req: IncomingMessage): URL {
  const url = new URL(req.url ?? '/', 'https://gateway.invalid');
  const scoped = splitTenantPath(url.pathname);
  if (!scoped) return url;
  scopes.set(req, scoped.tenantId);
  return new URL(`${scoped.rest}${url.search}`, 'https://gateway.invalid');
}

function scopedTenantOf(req: IncomingMessage): string | undefined {
  return scopes.get(req);
}

export interface Admitted {
  identity: Identity;
  ctx: TenantContext;
  info: RequestInfo;
}

/** Steps 4–7: authenticate, parse, authorize, admit. Shared with upgrade requests (exec, attach, port-forward). */
export async function admit(deps: GatewayDeps, req: IncomingMessage, url: URL, noteTenant: (id: string) => void = () => undefined): Promise<Admitted> {
  const identity = await deps.authenticate(req);
  setIdentity(req, identity);
  noteTenant(identity.tenantId);
  // A tenant base URL names a tenant; it must be the caller's own (answered like any unknown path).
  const scopedTo = scopedTenantOf(req);
  if (scopedTo !== undefined && scopedTo !== identity.tenantId) throw new ApiError('NotFound', 'the server could not find the requested resource');
  const tenant = deps.tenants.byId(identity.tenantId);
  if (!tenant) throw new ApiError('Unauthorized', 'Unauthorized');
  const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
  authorizeRequest(deps.policies.indexFor(identity.tenantId), identity, info);
  admitRequest(tenant, info);
  return { identity, ctx: { id: identity.tenantId, user: identity.user }, info };
}

/** Step 10: the independent guard. A refusal is a translator bug, logged as a security event. */
export function guard(deps: GatewayDeps, ctx: TenantContext, info: RequestInfo, request: { method: string; path: string; query: URLSearchParams; body?: unknown }): void {
  const refusal = guardUpstreamRequest(ctx.id, request);
  if (!refusal) return;
  deps.security.guardRefusal({ tenant: ctx.id, user: ctx.user ?? '', method: request.method, path: request.path, reason: refusal.message });
  throw new ApiError('Forbidden', `${info.resource} is forbidden: the request was refused by the isolation guard`);
}

async function forward(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<void> {
  const prepared = await deps.forwarder.prepare(req, ctx, info, fwd);
  guard(deps, ctx, info, { method: prepared.method, path: prepared.path, query: prepared.query, body: prepared.guardBody });
  const tenant = deps.tenants.byId(ctx.id);
  if (tenant) await deps.checkQuota(tenant, info, fwd);
  if (await deps.serveFromCache(req, res, ctx, info, fwd)) return;
  await deps.forwarder.send(req, res, ctx, info, fwd, prepared);
}

async function servePublic(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (HEALTH.test(path)) {
    const ok = !path.startsWith('/readyz') || deps.ready();
    res.writeHead(ok ? 200 : 500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' });
    res.end(ok ? 'ok' : 'readyz check failed');
    return true;
  }
  if (path === '/version' || path === '/version/') {
    sendJsonBody(res, 200, await deps.version());
    return true;
  }
  if (path === '/openid/v1/jwks') {
    sendJsonBody(res, 200, deps.jwks(), { 'Content-Type': 'application/jwk-set+json' });
    return true;
  }
  return false;
}
