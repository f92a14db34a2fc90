// The embedded apiserver's request chain, in order:
//   recover (every failure becomes a Status) → authenticate (health and version
//   are public, as on kube-apiserver) → parse request info → non-resource routes
//   (discovery, OpenAPI, health) → resource lookup → subresource or verb handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requirePlainObjectAccepted } from '../../core/plain-media-type.ts';
import { ApiError } from '../../core/api-error.ts';
import { parseRequestInfo } from '../../core/request-info.ts';
import type { Registry } from '../registry/registry.ts';
import { aggregatedDiscovery, aggregatedDiscoveryVersion, apiGroup, apiGroupList, apiResourceList, apiVersions } from './discovery.ts';
import { sendError, sendJson } from './respond.ts';
import { handleResource } from './resource-handlers.ts';
import { handleSubresource } from './subresources.ts';
import type { TablePrinter } from './table-printer.ts';
import type { OpenApiServer } from './openapi-routes.ts';
import type { Authenticator } from './authn.ts';
import type { Authorizer } from './authz.ts';
import type { SelfSubjectAccessReviewSpec, UserInfo } from '../../core/rbac/index.ts';
import { decodeBody, readBody } from '../../http/request-body.ts';
import type { TokenIssuer } from '../auth/token-issuer.ts';
import type { WatchSettings } from './watch-stream.ts';
import { PROGRESS_REQUEST_HEADER } from './progress-notify.ts';

export interface HandlerDeps {
  registry: Registry;
  tables: TablePrinter;
  openapi: OpenApiServer;
  authenticate: Authenticator;
  authorize: Authorizer;
  tokens: TokenIssuer;
  serverAddress: () => string;
  version: object;
  /** Answer /api and /apis in the apidiscovery.k8s.io form when asked (1.26+; an emulated 1.20 does not). */
  aggregatedDiscovery: boolean;
  ready: () => boolean;
  watches: WatchSettings;
}

const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version', '/healthz/ping', '/livez/ping', '/readyz/ping']);

export function createHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      if (err instanceof PageNotFound && !res.headersSent) sendPageNotFound(res);
      else sendError(res, err);
    });
  };
}

async function handle(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://apiserver.invalid');
  const path = url.pathname;
  const user = PUBLIC_PATHS.has(path) ? undefined : await deps.authenticate(req);
  if (!PUBLIC_PATHS.has(path) && !user) {
    throw new ApiError('Unauthorized', 'Unauthorized');
  }
  // Authorized before any route, non-resource paths (discovery, OpenAPI, JWKS) included, as in kube.
  if (user) deps.authorize(user, () => parseRequestInfo(req.method ?? 'GET', path, url.searchParams));
  // Once this answer (and the version it read) is out, watches that asked get a progress bookmark.
  if (req.headers[PROGRESS_REQUEST_HEADER] === 'true') res.once('finish', () => deps.watches.progress.request());
  if (handleNonResource(deps, req, res, path)) return;
  const info = parseRequestInfo(req.method ?? 'GET', path, url.searchParams);
  if (!info.isResourceRequest) {
    if (info.apiPrefix === 'api' && path.replace(/\/+$/, '') === '/api') {
      sendDiscoveryRoot(deps, req, res, true);
      return;
    }
    if (info.apiPrefix === 'apis' && path.replace(/\/+$/, '') === '/apis') {
      sendDiscoveryRoot(deps, req, res, false);
      return;
    }
    if (info.apiPrefix === 'apis' && info.apiGroup === '' && info.parts.length === 0) {
      const group = path.split('/').filter(Boolean)[1] ?? '';
      const doc = apiGroup(deps.registry.catalog, group);
      if (!doc) throw notFoundPath(deps, group);
      sendJson(res, 200, doc);
      return;
    }
    if (info.apiVersion) {
      const doc = apiResourceList(deps.registry.catalog, info.apiGroup, info.apiVersion);
      if (!doc) throw notFoundPath(deps, info.apiGroup, info.apiPrefix);
      sendJson(res, 200, doc);
      return;
    }
    throw notFoundPath(deps, info.apiGroup, info.apiPrefix);
  }
  const def = deps.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!def) throw notFoundPath(deps, info.apiGroup, info.apiPrefix);
  if (user && info.apiGroup === 'authorization.k8s.io' && info.resource === 'selfsubjectaccessreviews' && info.verb === 'create') {
    await answerAccessReview(deps, req, res, user);
    return;
  }
  const ctx = { req, res, info, query: url.searchParams, def, registry: deps.registry, tables: deps.tables, watches: deps.watches };
  if (info.subresource) {
    await handleSubresource(ctx, deps.tokens);
    return;
  }
  await handleResource(ctx);
}

/** SelfSubjectAccessReviews are answered, never stored: kube's authorizer, asked about the caller. */
async function answerAccessReview(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, user: UserInfo): Promise<void> {
  requirePlainObjectAccepted(req.headers.accept);
  const body = decodeBody(await readBody(req), req.headers['content-type'], { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' }) as { spec?: SelfSubjectAccessReviewSpec };
  const spec = body.spec ?? {};
  sendJson(res, 201, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: deps.authorize.review(user, spec) });
}

// A real kube-apiserver answers a path in a group nobody serves with a plain-text "404 page not
// found" (no handler is registered for the group, so the mux's default answers); a served group's
// unknown version or resource is a NotFound Status. Clients and the gateway meet both.
class PageNotFound extends Error {}

function notFoundPath(deps: HandlerDeps, group: string, apiPrefix = 'apis'): Error {
  if (apiPrefix === 'apis' && !apiGroup(deps.registry.catalog, group)) return new PageNotFound('404 page not found');
  return new ApiError('NotFound', 'the server could not find the requested resource', {});
}

function sendPageNotFound(res: ServerResponse): void {
  const body = '404 page not found\n';
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function sendDiscoveryRoot(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, core: boolean): void {
  const aggregated = deps.aggregatedDiscovery ? aggregatedDiscoveryVersion(req.headers.accept) : undefined;
  if (aggregated) {
    const apiVersion = `apidiscovery.k8s.io/${aggregated}`;
    sendJson(res, 200, aggregatedDiscovery(deps.registry.catalog, core, apiVersion), {
      'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${aggregated};as=APIGroupDiscoveryList`,
      Vary: 'Accept',
    });
    return;
  }
  sendJson(res, 200, core ? apiVersions(deps.serverAddress()) : apiGroupList(deps.registry.catalog), { Vary: 'Accept' });
}

function handleNonResource(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (path === '/version' || path === '/version/') {
    sendJson(res, 200, deps.version);
    return true;
  }
  if (/^\/(healthz|livez|readyz)(\/ping)?\/?$/.test(path)) {
    const ok = !path.startsWith('/readyz') || deps.ready();
    res.writeHead(ok ? 200 : 500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' });
    res.end(ok ? 'ok' : '[-]readyz failed: not ready\nreadyz check failed');
    return true;
  }
  if (path.startsWith('/openapi/')) {
    deps.openapi.serve(req, res, path);
    return true;
  }
  if (path === '/openid/v1/jwks' || path === '/.well-known/openid-configuration') {
    deps.tokens.serveDiscovery(res, path);
    return true;
  }
  return false;
}
