// Connection upgrades (exec, attach, port-forward over SPDY or WebSocket) go
// through the same chain as every other request, then the proxy adapter
// tunnels the bytes, each session holding a fairness seat of its tenant's for
// its whole life. A refusal is written to the raw socket as a Status (with
// Retry-After for a 429).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, toApiError } from '../core/api-error.ts';
import { translateRequest } from '../core/tenancy/request-translation.ts';
import { toTenantStatus } from '../core/tenancy/status-translation.ts';
import { stripIdentityHeaders } from './authn/strip-identity-headers.ts';
import { admit, guard, knownTenantIds, scopedUrl, type GatewayDeps } from './handler.ts';
import type { Proxy } from './proxy/proxy-adapter.ts';

const UPGRADABLE = new Set(['exec', 'attach', 'portforward']);

function refuse(socket: Duplex, err: ApiError, tenantId: string | undefined, known?: (id: string) => boolean): void {
  const status = tenantId ? toTenantStatus(tenantId, err.toStatus(), known) : err.toStatus();
  const body = JSON.stringify(status);
  const retryAfter = err.details?.retryAfterSeconds ? `Retry-After: ${err.details.retryAfterSeconds}\r\n` : '';
  socket.end(`HTTP/1.1 ${err.code} ${err.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`);
}

export function createUpgradeHandler(deps: GatewayDeps, proxy: Proxy): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    let tenantId: string | undefined;
    (async () => {
      stripIdentityHeaders(req);
      const url = scopedUrl(req);
      const { ctx, info } = await admit(deps, req, url, (id) => { tenantId = id; });
      if (!info.isResourceRequest || !UPGRADABLE.has(info.subresource)) throw new ApiError('BadRequest', 'only exec, attach and portforward accept a connection upgrade');
      const fwd = translateRequest(ctx, info, url.searchParams);
      if (fwd.action !== 'forward') throw new ApiError('BadRequest', 'this request cannot be upgraded');
      guard(deps, ctx, info, { method: req.method ?? 'GET', path: fwd.path, query: fwd.query });
      // A session holds one of its tenant's upgrade seats until its socket closes (429 beyond the share).
      const tenant = deps.tenants.byId(ctx.id);
      if (tenant && deps.fairness) {
        deps.fairness.admitConnection(req.socket, tenant);
        const seat = deps.fairness.enterUpgrade(tenant);
        socket.once('close', () => seat.release());
        if (socket.destroyed) seat.release();
      }
      const query = fwd.query.toString();
      proxy.upgrade(req, socket, head, { path: query ? `${fwd.path}?${query}` : fwd.path });
    })().catch((err: unknown) => refuse(socket, toApiError(err), tenantId, knownTenantIds(deps.tenants)));
  };
}
