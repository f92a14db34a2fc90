// The web console on the gateway's port (docs/console.md):
//   GET  /console/                       the page (index.html, app.js, app.css)
//   GET  /console/api/state              the whole state (tenants, members, placement)
//   GET  /console/api/live               the same, live, as server-sent events (then deltas)
//   GET  /console/api/tenants/<name>     a tenant's detail
//   POST /console/api/tenants/<name>/{suspend,resume,revoke}
//   POST /console/api/tenants/<name>/kubeconfig[?user=<user>]   a user's kubeconfig (default: the first admin), as a download
// Creating and deleting a tenant use the provisioning API (/warren/v1/tenants).
// Every request is checked (console-auth.ts): platform admins only, tenants 403.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, methodNotAllowed, notFound } from '../../core/api-error.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { sendJson } from '../../http/json-response.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { kubeconfigKey } from '../../tenants/kubeconfig-secret.ts';
import { checkTenantName } from '../../tenants/tenant-name.ts';
import { tenantDetail } from '../view/tenant-detail.ts';
import { tenantIdOf } from '../view/tenant-rows.ts';
import { consoleCaller, requireConsoleAdmin, type ConsoleAuthDeps } from './console-auth.ts';
import { createAssetCache } from './console-assets.ts';
import { startConsoleSource, type ConsoleSource } from './console-source.ts';
import { serveLive } from './console-live.ts';
import { tenantEvents } from './tenant-events.ts';
import { applyTenantAction, TENANT_ACTIONS, tenantKubeconfig, type TenantAction } from './tenant-actions.ts';
import { levelled } from '../../observability/log-line.ts';

export const CONSOLE_PREFIX = '/console';
const API = `${CONSOLE_PREFIX}/api/`;
/** The header every console change carries (console/web/api.ts sends it on every call). */
export const CONSOLE_HEADER = 'x-warren-console';
/** Open live streams the gateway keeps at once (admins' tabs). */
const MAX_LIVE_STREAMS = 32;

export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}

/** The page may only load its own assets and talk to its own origin; nothing framed, nothing inline. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-cache',
};

export interface ConsoleDeps extends ConsoleAuthDeps {
  upstream: Upstream;
  log: (line: string) => void;
}

export interface ConsoleServer {
  serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  stop(): void;
}

export function createConsole(deps: ConsoleDeps): ConsoleServer {
  const assets = createAssetCache({ log: deps.log });
  const streams = new Set<ServerResponse>();
  let source: ConsoleSource | undefined;
  let stopped = false;
  const sourceNow = (): ConsoleSource => {
    if (stopped) throw new ApiError('ServiceUnavailable', 'the server is shutting down, please try again', { retryAfterSeconds: 1 });
    return (source ??= startConsoleSource({ upstream: deps.upstream, log: deps.log }));
  };

  async function serveAsset(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    await consoleCaller(req, deps, path);
    if (path === CONSOLE_PREFIX) {
      res.writeHead(308, { Location: `${CONSOLE_PREFIX}/`, ...PAGE_HEADERS });
      res.end();
      return;
    }
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed();
    const asset = await assets(path.slice(CONSOLE_PREFIX.length + 1));
    if (!asset) throw new ApiError('NotFound', 'the server could not find the requested resource');
    res.writeHead(200, { 'Content-Type': asset.contentType, 'Content-Length': asset.body.length, ...PAGE_HEADERS });
    res.end(method === 'HEAD' ? undefined : asset.body);
  }

  /** A tenant name from the path; a malformed escape is the caller's 422, not a 500. */
  function decodeName(segment: string): string {
    try {
      return decodeURIComponent(segment);
    } catch {
      throw new ApiError('Invalid', `invalid tenant name "${segment}": a malformed %-escape`);
    }
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    const session = await requireConsoleAdmin(req, deps, path);
    const admin = session.name;
    const method = (req.method ?? 'GET').toUpperCase();
    // A platform-admin client certificate travels with every request a browser makes, cross-site ones
    // too (like a cookie): a change needs the console's own header, which a cross-site form cannot send
    // and a cross-site fetch cannot send without a CORS preflight that the gateway never allows.
    if (method !== 'GET' && method !== 'HEAD' && req.headers[CONSOLE_HEADER] !== '1') {
      throw new ApiError('Forbidden', `forbidden: a console change needs the ${CONSOLE_HEADER} header (cross-site requests are refused)`);
    }
    const rest = path.slice(API.length).split('/');
    if (rest[0] === 'state' && rest.length === 1) {
      if (method !== 'GET') throw methodNotAllowed();
      sendJson(res, 200, await sourceNow().state(), { 'Cache-Control': 'no-store' });
      return;
    }
    if (rest[0] === 'live' && rest.length === 1) {
      if (method !== 'GET') throw methodNotAllowed();
      // Each stream holds a socket and up to 4 MiB: a bound, so a leaked token cannot hold the gateway's memory.
      if (streams.size >= MAX_LIVE_STREAMS) throw new ApiError('TooManyRequests', `too many open console streams (${MAX_LIVE_STREAMS}): close a console tab and retry`);
      await serveLive(res, sourceNow(), streams, session.expiresAt === undefined ? {} : { endsAt: session.expiresAt });
      return;
    }
    if (rest[0] !== 'tenants' || rest.length < 2 || rest.length > 3) throw new ApiError('NotFound', 'the server could not find the requested resource');
    const name = decodeName(rest[1] ?? '');
    checkTenantName(name);
    const action = rest[2];
    if (action === undefined) {
      if (method !== 'GET') throw methodNotAllowed();
      sendJson(res, 200, await detailOf(name), { 'Cache-Control': 'no-store' });
      return;
    }
    if (method !== 'POST') throw methodNotAllowed();
    if (action === 'kubeconfig') {
      const tenant = await freshTenant(name);
      const found = await tenantKubeconfig(deps.upstream, tenant, url.searchParams.get('user') ?? undefined);
      deps.log(levelled('info', `console: ${admin} downloaded tenant ${name}'s kubeconfig of ${found.user}`, { event: 'console-kubeconfig', admin, tenant: name, user: found.user }));
      res.writeHead(200, {
        'Content-Type': 'application/yaml; charset=utf-8',
        // The user name is the admin's free text: only [-._a-zA-Z0-9] reaches the header (as in the Secret's key).
        'Content-Disposition': `attachment; filename="${name}-${kubeconfigKey(found.user)}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(found.kubeconfig);
      return;
    }
    if (!TENANT_ACTIONS.includes(action as TenantAction)) throw new ApiError('NotFound', 'the server could not find the requested resource');
    await applyTenantAction(deps.upstream, name, action as TenantAction);
    deps.log(levelled('info', `console: ${admin}: ${action} tenant ${name}`, { event: 'console-action', admin, tenant: name, action }));
    sendJson(res, 200, { name, action });
  }

  /** The Tenant as stored now (not the cache): a download must not follow a stale admin list. */
  async function freshTenant(name: string): Promise<Tenant> {
    const answer = await deps.upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
    if (answer.status === 404) throw notFound({ group: 'tenancy.warren.dev', resource: 'tenants', name });
    if (answer.status !== 200) throw new ApiError('InternalError', `cannot read tenant "${name}": HTTP ${answer.status}`);
    return answer.body;
  }

  async function detailOf(name: string): Promise<unknown> {
    const src = sourceNow();
    const state = await src.state();
    const tenant = src.tenant(name);
    if (!tenant) throw notFound({ group: 'tenancy.warren.dev', resource: 'tenants', name });
    const id = tenantIdOf(tenant);
    const namespaces = src.namespaces().filter((ns) => id && ns.metadata.labels?.[TENANT_LABEL] === id);
    return tenantDetail({
      tenant,
      namespaces,
      bindings: src.bindings(),
      events: await tenantEvents(deps.upstream, name, namespaces.map((ns) => ns.metadata.name ?? '')),
      replicas: state.tenants.find((t) => t.name === name)?.replicas ?? 0,
    });
  }

  return {
    async serve(req, res, url) {
      const path = url.pathname;
      if (path.startsWith(API)) await serveApi(req, res, url);
      else await serveAsset(req, res, path);
    },
    stop() {
      stopped = true;
      source?.stop();
      for (const res of streams) res.destroy();
      streams.clear();
    },
  };
}
