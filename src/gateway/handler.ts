// The gateway's request chain, written once, in order. Why each step sits where it does:
//  1. recover: every failure, ours or upstream's, leaves as a Status in tenant terms.
//  2. strip client identity headers: before anything could read a forged
//     Impersonate-* or X-Remote-* header.
//  3. public endpoints (health, version, JWKS): answered without credentials, as
//     kube-apiserver does, and before authentication so probes never need one.
//  4. authenticate: certificate or bearer token → tenant, user, groups; the
//     tenant must exist and the credential must postdate its revocation point.
//     Then impersonation (Impersonate-*, kept aside by step 2): honoured inside
//     the tenant when its RBAC allows `impersonate`, as kube does; every later
//     step, upgrades included, sees the impersonated identity.
//  4½. fairness: a request body is read in full first (its time is the
//     client's, not a seat's; large ones one per tenant), then of seats and its bounded queue (429 beyond);
//     as soon as the tenant is known, so a refusal costs no parsing, RBAC or
//     translation (a flooding tenant must not buy CPU with refusals), and
//     before any upstream work (discovery and OpenAPI read upstream too). A
//     refused connection is not read again until its Retry-After has passed.
//     Long-running requests give their seat back once step 5 knows them, and hold
//     one of the tenant's long-running slots instead; the connection itself is
//     counted for the tenant first (both bounded per tenant, 429 beyond: ADR 0045).
//  5. parse request info: in the tenant's terms, with the same parser the
//     embedded apiserver uses.
//  6. authorize: the tenant's own RBAC, evaluated by the gateway; the upstream
//     never sees tenant users.
//  7. admission: a suspended tenant may read, not write.
//  8. gateway-answered requests: discovery, OpenAPI, access reviews.
//  9. translate: path, query, selectors and body to upstream terms.
// 10. guard: an independent re-check of the upstream request, just before it
//     is sent; a refusal here is a translator bug and a security event. A
//     write is guarded on its final object (a patch after it was applied),
//     then admitted (admission/admission-chain.ts) on that same object.
// 11. proxy: forward with Warren's credential; translate the response or stream.
//     Karmada Clusters are answered through the tenant's filtered view first
//     (clusters/serve-clusters.ts): after the guard, before the cache and proxy.
// Around the chain: the observer (metrics, audit) sees every request from its
// arrival to its response's close; while the gateway drains, new requests get
// 503 after the probes (which must keep answering: /readyz then says 500).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, methodNotAllowed, toApiError } from '../core/api-error.ts';
import type { KubeObject } from '../core/types.ts';
import { requirePlainObjectAccepted } from '../core/plain-media-type.ts';
import { parseRequestInfo, type RequestInfo } from '../core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../core/tenancy/request-translation.ts';
import { guardUpstreamRequest } from '../core/tenancy/isolation-guard.ts';
import type { TenantContext } from '../core/tenancy/tenant-context.ts';
import { setIdentity, type Identity } from './identity.ts';
import type { TenantDirectory, TenantInfo } from '../tenants/tenant-directory.ts';
import type { TenantPolicies } from './authz/tenant-policies.ts';
import { authorizeRequest } from './authz/authorize-request.ts';
import { admitRequest } from './admission/admit-request.ts';
import { answerAccessReview } from './answered/access-reviews.ts';
import { answerSelfSubjectReview } from './answered/self-subject-review.ts';
import type { DiscoveryService } from './answered/discovery.ts';
import type { OpenApiService } from './answered/openapi.ts';
import { sendGatewayError, sendJsonBody } from './respond.ts';
import type { Forwarder } from './forward/forwarder.ts';
import { stripIdentityHeaders } from './authn/strip-identity-headers.ts';
import { withImpersonation } from './authn/impersonation.ts';
import type { TokenRequestTarget } from './authn/token-request.ts';
import type { SecurityLog } from './security-log.ts';
import { splitTenantPath } from '../tenants/tenant-url.ts';
import { isPortalPath } from './portal/portal-routes.ts';
import type { Fairness, Seat } from './fairness/fairness-filter.ts';
import type { HeavyBodyGate } from './forward/heavy-body-gate.ts';
import type { BodyReader } from './forward/body-read-first.ts';
import type { InFlight } from './fairness/in-flight.ts';
import { isLongRunning } from './fairness/long-running.ts';
import { tenantViewUri, type RequestObserver } from './observability/request-observer.ts';
import { noteRequestInfo, noteTranslationError } from './observability/request-record.ts';
import { METRICS_PATH } from './observability/metrics-endpoint.ts';
import { levelled } from '../observability/log-line.ts';
import type { HealthHandler } from './health/health-endpoint.ts';
import type { ServeNodes } from './nodes/serve-nodes.ts';

export interface GatewayDeps {
  authenticate(req: IncomingMessage): Promise<Identity>;
  tenants: TenantDirectory;
  policies: TenantPolicies;
  /** Resolves true once the RBAC informers provably caught up with the upstream (bounded); see rbac-catch-up.ts. */
  rbacCatchUp?: (timeoutMs: number) => Promise<boolean>;
  discovery: DiscoveryService;
  openapi: OpenApiService;
  forwarder: Forwarder;
  /** The platform-admin provisioning API (portal-routes.ts). */
  portal(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /** The web console for platform admins (src/console), under /console/; absent: 404 there. */
  console?: { isPath(path: string): boolean; serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> };
  /** All-namespaces and cluster-scoped reads answered from the shared watch cache; false = forward. */
  serveFromCache(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<boolean>;
  /** Karmada Clusters in the tenant's view (only those its Tenant allows); false = not a Cluster request. */
  serveClusters?(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<boolean>;
  /** Tenants' virtual nodes (ADR 30); absent: nodes answer 404. */
  serveNodes?: ServeNodes;
  /** TokenRequest for a tenant ServiceAccount, answered with a Warren token (authn/token-request.ts); absent: 405. */
  tokenRequests?(req: IncomingMessage, target: TokenRequestTarget): Promise<KubeObject>;
  version(): Promise<unknown>;
  jwks(): unknown;
  /** /readyz 200 or 500, when no named checks (health) are given. */
  ready(): boolean;
  /** /livez, /readyz, /healthz with named checks (health/gateway-health.ts); absent: ready() alone. */
  health?: HealthHandler;
  /** Server errors (5xx) with the request's Audit-ID; absent: not logged. */
  log?: (line: string) => void;
  security: SecurityLog;
  /** Per-tenant seats and queues (fairness/); absent: no limits. */
  fairness?: Fairness;
  /** One large request body per tenant at a time, a bounded queue behind it (forward/heavy-body-gate.ts); absent: no bound. */
  heavyBodies?: HeavyBodyGate;
  /** Every request body read in full before its seat (forward/body-read-first.ts); absent: read under the seat. */
  bodiesFirst?: BodyReader;
  /** In-flight requests, for draining on stop(). */
  inFlight?: InFlight;
  observer?: RequestObserver;
  /** GET /metrics for platform admins (observability/metrics-endpoint.ts). */
  metricsEndpoint?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

const HEALTH = /^\/(healthz|livez|readyz)(\/[a-z-]+)?\/?$/;

export function createGatewayHandler(deps: GatewayDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    deps.observer?.begin(req, res);
    // Draining: every answer closes its connection, so clients reconnect to another replica.
    if (deps.inFlight?.draining) res.setHeader('Connection', 'close');
    let tenantId: string | undefined;
    let cause: unknown;
    // The lines about a request (a 5xx, a guard refusal) carry its Audit-ID (set by the observer)
    // explicitly. Not through an AsyncLocalStorage scope: on Node 20 that turns on async hooks for
    // every promise and cost ~0.7 ms per GET in the gateway bench (1.59 vs 0.82 ms p50).
    const auditID = res.getHeader('Audit-ID');
    // An unexpected error's 500 names the Audit-ID only; its cause goes to the log line below.
    const run = (): Promise<void> => handle(deps, req, res, (id) => { tenantId = id; }).catch((err: unknown) => {
      cause = err;
      sendGatewayError(res, toApiError(err, typeof auditID === 'string' ? auditID : undefined), tenantId ? { id: tenantId, isTenantId: knownTenantIds(deps.tenants) } : undefined);
    });
    if (typeof auditID === 'string' && deps.log) {
      const log = deps.log;
      // The URL as it arrived (the proxy rewrites req.url), parsed only for a 5xx's line.
      const arrived = req.url ?? '/';
      res.once('close', () => {
        if (res.headersSent && res.statusCode >= 500) logServerError(log, { auditID, code: res.statusCode, method: req.method, path: tenantViewUri(arrived).split('?')[0] }, cause);
      });
    }
    void run();
  };
}

/**
 * A 5xx, raised in the chain or by the proxy (upstream unreachable, timeout) or
 * passed through from the upstream: the operator needs the cause the tenant's
 * Status hides. Written at close, outside the request's scope: the id is explicit.
 */
function logServerError(log: (line: string) => void, request: { auditID: string; code: number; method: string | undefined; path: string | undefined }, cause: unknown): void {
  const error = cause === undefined ? undefined : cause instanceof Error ? cause.message : String(cause);
  log(levelled(request.code === 503 ? 'warn' : 'error', `${request.method ?? ''} ${request.path ?? ''}: ${request.code}${error ? `: ${error}` : ''}`, {
    event: 'request-failed', ...request, ...(error === undefined ? {} : { error }),
  }));
}

async function handle(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, noteTenant: (id: string) => void): Promise<void> {
  stripIdentityHeaders(req);
  const url = scopedUrl(req);
  if (await servePublic(deps, req, res, url)) return;
  if (deps.inFlight?.draining) throw new ApiError('ServiceUnavailable', 'the server is shutting down, please try again', { retryAfterSeconds: 1 });
  // Metrics name tenants: platform admins only, checked like the portal before tenant authentication.
  if (deps.metricsEndpoint && url.pathname === METRICS_PATH) {
    await deps.metricsEndpoint(req, res);
    return;
  }
  // The provisioning API answers platform admins, never tenants: it sits before tenant authentication.
  if (isPortalPath(url.pathname)) {
    await deps.portal(req, res, url.pathname);
    return;
  }
  // The console, likewise platform admins only (a tenant credential gets 403 there).
  if (deps.console?.isPath(url.pathname)) {
    await deps.console.serve(req, res, url);
    return;
  }
  const { identity, tenant } = await authenticateTenant(deps, req, noteTenant);
  // The connection counts for its tenant from its first request on: beyond the tenant's bound, 429 and it closes (ADR 0045).
  deps.fairness?.admitConnection(req.socket, tenant, res);
  // In the drain from here: waiting for its large-body turn, its body or its seat, a request is in flight too.
  deps.inFlight?.track(res, false);
  // A tenant's large body waits for its turn before it takes a seat: waiting, it holds none of the gateway's (ADR 0026).
  await deps.heavyBodies?.enter(req, res, tenant.id);
  // Then the body is read, before the seat: a seat is the gateway's work, never a wait on a client's bytes.
  await deps.bodiesFirst?.read(req, res, tenant.id);
  const seat = await takeSeat(deps, req, res, tenant, url);
  const { ctx, info } = await authorizeAdmitted(deps, req, url, identity, tenant);
  if (isLongRunning(info)) holdLongRunning(deps, res, tenant, seat);
  deps.inFlight?.track(res, isLongRunning(info));
  deps.observer?.admitted(res, identity.tenantId, info);
  if (!info.isResourceRequest) {
    if (url.pathname.startsWith('/openapi/')) {
      await deps.openapi.serve(req, res, ctx, url.pathname);
      return;
    }
    await deps.discovery.serve(req, res, ctx, info, url.pathname);
    return;
  }
  const translated = translating(req, () => translateRequest(ctx, info, url.searchParams));
  // Answered objects have no Table form: kube refuses an Accept that only asks for one (406).
  if (translated.action === 'answer') requirePlainObjectAccepted(req.headers.accept);
  if (translated.action === 'answer' && translated.resource === 'selfsubjectreviews') {
    sendJsonBody(res, 201, await answerSelfSubjectReview(req, identity, info.apiVersion));
    return;
  }
  if (translated.action === 'answer' && translated.resource === 'serviceaccounts/token') {
    if (!deps.tokenRequests) throw methodNotAllowed();
    const target = { tenantId: identity.tenantId, tenantUid: tenant.uid, namespace: translated.namespace ?? '', name: translated.name ?? '' };
    sendJsonBody(res, 201, await deps.tokenRequests(req, target));
    return;
  }
  if (translated.action === 'answer') {
    sendJsonBody(res, 201, await answerAccessReview(req, identity, deps.policies.indexFor(identity.tenantId), translated.resource));
    return;
  }
  if (translated.action === 'view') {
    // Built from the tenant's own objects, never forwarded: nothing upstream to guard.
    if (!deps.serveNodes) throw new ApiError('NotFound', 'the server could not find the requested resource');
    await deps.serveNodes(req, res, ctx, translated, url.searchParams);
    return;
  }
  await forward(deps, req, res, ctx, info, translated);
}

/** How long a request about to be denied waits for the RBAC informers to prove themselves current. */
const RBAC_CATCH_UP_MS = 1_000;

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
  const { identity, tenant } = await authenticateTenant(deps, req, noteTenant);
  return await authorizeAdmitted(deps, req, url, identity, tenant);
}

/** Step 4: who is calling, and their tenant (which must exist, and be the one a tenant base URL names). */
async function authenticateTenant(deps: GatewayDeps, req: IncomingMessage, noteTenant: (id: string) => void): Promise<{ identity: Identity; tenant: TenantInfo }> {
  const identity = await deps.authenticate(req);
  setIdentity(req, identity);
  noteTenant(identity.tenantId);
  // A tenant base URL names a tenant; it must be the caller's own (answered like any unknown path).
  const scopedTo = scopedTenantOf(req);
  if (scopedTo !== undefined && scopedTo !== identity.tenantId) throw new ApiError('NotFound', 'the server could not find the requested resource');
  const tenant = deps.tenants.byId(identity.tenantId);
  if (!tenant) throw new ApiError('Unauthorized', 'Unauthorized');
  // 4¼. impersonation: once the caller's tenant is known, before anything decides on the identity.
  const acting = await withImpersonation({ policyFor: (id) => deps.policies.indexFor(id), ...(deps.rbacCatchUp ? { rbacCatchUp: deps.rbacCatchUp } : {}) }, req, identity);
  return { identity: acting, tenant };
}

/** Steps 5–7: parse, authorize, admit. */
async function authorizeAdmitted(deps: GatewayDeps, req: IncomingMessage, url: URL, identity: Identity, tenant: TenantInfo): Promise<Admitted> {
  const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
  noteRequestInfo(req, info);
  try {
    authorizeRequest(deps.policies.indexFor(identity.tenantId), identity, info);
  } catch (err) {
    // Before a 403, make sure it is not only the RBAC informers lagging behind a binding
    // written a moment ago (a tenant just reported Ready, a RoleBinding just made).
    if (!(err instanceof ApiError) || err.code !== 403 || !deps.rbacCatchUp || !(await deps.rbacCatchUp(RBAC_CATCH_UP_MS))) throw err;
    authorizeRequest(deps.policies.indexFor(identity.tenantId), identity, info);
  }
  admitRequest(tenant, info);
  return { identity, ctx: { id: identity.tenantId, user: identity.user, isTenantId: knownTenantIds(deps.tenants) }, info };
}

/** Which ids are tenants', for scrubbing upstream text of other tenants' names (status-translation.ts). */
export function knownTenantIds(tenants: TenantDirectory): (id: string) => boolean {
  return (id) => tenants.byId(id) !== undefined;
}

/** Step 10: the independent guard. A refusal is a translator bug, logged as a security event. */
export function guard(deps: GatewayDeps, ctx: TenantContext, info: RequestInfo, request: { method: string; path: string; query: URLSearchParams; body?: unknown }, res?: ServerResponse): void {
  const refusal = guardUpstreamRequest(ctx.id, { ...request, podSecurity: deps.tenants.byId(ctx.id)?.podSecurity ?? 'baseline' });
  if (!refusal) return;
  deps.security.guardRefusal({ tenant: ctx.id, user: ctx.user ?? '', method: request.method, path: request.path, reason: refusal.message, ...(res ? auditIdOf(res) : {}) });
  throw new ApiError('Forbidden', `${info.resource} is forbidden: the request was refused by the isolation guard`);
}

async function forward(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<void> {
  const prepared = await translatingAsync(req, () => deps.forwarder.prepare(req, ctx, info, fwd, res));
  guard(deps, ctx, info, { method: prepared.method, path: prepared.path, query: prepared.query, body: prepared.guardBody }, res);
  if (await deps.serveClusters?.(req, res, ctx, info, fwd)) return;
  if (await deps.serveFromCache(req, res, ctx, info, fwd)) return;
  // The guard again on the final object of every write, right before it is sent: for a patch the
  // gateway applies itself, that object exists only after the stored one was read and patched.
  // A write the gateway redirects to the parent object (a held object's scale, ADR 0023) is guarded at that path.
  const guardFinal = (body: unknown, path = prepared.path): void => guard(deps, ctx, info, { method: prepared.method, path, query: prepared.query, body }, res);
  await deps.forwarder.send(req, res, ctx, info, fwd, prepared, guardFinal);
}

/**
 * Step 4½: a seat in the tenant's share (released when the response closes).
 * A refused request is still labelled for metrics (verb, resource): parsing
 * is cheap next to what a refusal saves, and the 429s must show what they hit.
 */
async function takeSeat(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, tenant: TenantInfo, url: URL): Promise<Seat> {
  if (!deps.fairness) return { release: () => undefined };
  try {
    return await deps.fairness.enter(req, res, tenant);
  } catch (err) {
    try {
      noteRequestInfo(req, parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams));
    } catch {
      // An unparseable path keeps its 429: the refusal is what the client must see first.
    }
    throw err;
  }
}

/**
 * A long-running request gives its seat back (as in APF) and holds one of its tenant's long-running
 * slots instead, until its response closes: 429 beyond the tenant's bound (ADR 0045).
 */
function holdLongRunning(deps: GatewayDeps, res: ServerResponse, tenant: TenantInfo, seat: Seat): void {
  seat.release();
  const held = deps.fairness?.enterLongRunning(tenant, res);
  if (!held) return;
  if (res.destroyed) held.release();
  else res.once('close', () => held.release());
}

/** A translation refusal is the tenant's error to see, and a metric for the platform. */
function translating<T>(req: IncomingMessage, step: () => T): T {
  try {
    return step();
  } catch (err) {
    noteTranslationError(req, toApiError(err).reason);
    throw err;
  }
}

async function translatingAsync<T>(req: IncomingMessage, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    noteTranslationError(req, toApiError(err).reason);
    throw err;
  }
}

async function servePublic(deps: GatewayDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const path = url.pathname;
  if (deps.health && HEALTH.test(path)) {
    await deps.health(req, res, url);
    return true;
  }
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

function auditIdOf(res: ServerResponse): { auditID?: string } {
  const id = res.getHeader('Audit-ID');
  return typeof id === 'string' ? { auditID: id } : {};
}
