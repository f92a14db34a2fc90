// Serving a tenant's reads of Karmada Clusters (get, list, watch; writes were
// refused as shared read-only before this point) through cluster-view.ts. It
// sits after the isolation guard and before the shared cache, so no path to
// Clusters skips the filter: the cache and the plain proxy never see them.
// A watch ends when the tenant's allowed set changes, so the client lists
// again and drops Clusters it may no longer see (no ghost in its cache).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { LineSplitter } from '../../kube/line-splitter.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { sendJsonBody } from '../respond.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import { CLUSTER_GROUP, CLUSTER_RESOURCE, filterClusterBody, filterClusterEvent, isClusterRequest } from './cluster-view.ts';

export type ServeClusters = (req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest) => Promise<boolean>;

const ALLOWED_RECHECK_MS = 1_000;

function allowedOf(tenants: TenantDirectory, id: string): { set: ReadonlySet<string>; key: string } {
  const names = [...(tenants.byId(id)?.clusters ?? [])].sort();
  return { set: new Set(names), key: names.join('\n') };
}

/** JSON media types only (Karmada Clusters have no protobuf form); rows keep their objects so they can be filtered. */
function upstreamRequest(req: IncomingMessage, fwd: ForwardedRequest): { path: string; accept: string; stripRowObjects: boolean } {
  const asked = req.headers.accept ?? '';
  const accept = asked && !asked.includes('protobuf') ? asked : 'application/json';
  const query = new URLSearchParams(fwd.query);
  const stripRowObjects = query.get('includeObject') === 'None';
  if (stripRowObjects) query.set('includeObject', 'Metadata');
  const text = query.toString();
  return { path: text ? `${fwd.path}?${text}` : fwd.path, accept, stripRowObjects };
}

function withoutRowObjects(body: unknown): unknown {
  const table = body as { kind?: string; rows?: Array<Record<string, unknown>> };
  if (table?.kind !== 'Table' || !Array.isArray(table.rows)) return body;
  return { ...table, rows: table.rows.map(({ object: _object, ...row }) => row) };
}

export function createClusterServer(upstream: Upstream, tenants: TenantDirectory): ServeClusters {
  return async (req, res, ctx, info, fwd) => {
    if (!isClusterRequest(info)) return false;
    const allowed = allowedOf(tenants, ctx.id);
    // Another tenant's cluster does not exist for this one: refused before the upstream is asked.
    if (info.name && !allowed.set.has(info.name)) {
      if (info.verb !== 'watch') throw notFound({ group: CLUSTER_GROUP, resource: CLUSTER_RESOURCE, name: info.name });
    }
    const request = upstreamRequest(req, fwd);
    if (info.verb === 'watch') {
      await serveWatch(upstream, tenants, ctx.id, req, res, request);
      return true;
    }
    const answer = await upstream.request('GET', request.path, undefined, { Accept: request.accept });
    if (answer.status < 200 || answer.status > 299) {
      sendJsonBody(res, answer.status, answer.body);
      return true;
    }
    const filtered = filterClusterBody(answer.body, allowed.set);
    if (filtered === undefined) throw notFound({ group: CLUSTER_GROUP, resource: CLUSTER_RESOURCE, name: info.name });
    sendJsonBody(res, answer.status, request.stripRowObjects ? withoutRowObjects(filtered) : filtered);
    return true;
  };
}

async function serveWatch(
  upstream: Upstream, tenants: TenantDirectory, tenantId: string, req: IncomingMessage, res: ServerResponse,
  request: { path: string; accept: string; stripRowObjects: boolean },
): Promise<void> {
  const initial = allowedOf(tenants, tenantId);
  const stream = await upstream.stream(request.path, { Accept: request.accept });
  if (stream.statusCode !== 200) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    let body: unknown = Buffer.concat(chunks).toString('utf8');
    try { body = JSON.parse(body as string); } catch { /* not JSON: passed as text */ }
    sendJsonBody(res, stream.statusCode ?? 500, body);
    return;
  }
  res.writeHead(200, { 'Content-Type': String(stream.headers['content-type'] ?? 'application/json'), 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const splitter = new LineSplitter();
  let closed = false;
  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(recheck);
    stream.destroy();
    res.end();
  };
  const changed = (): boolean => allowedOf(tenants, tenantId).key !== initial.key;
  const recheck = setInterval(() => { if (changed()) finish(); }, ALLOWED_RECHECK_MS);
  recheck.unref();
  const write = (line: string): void => {
    if (closed) return;
    if (changed()) return finish();
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return finish(); // a torn stream: end it, the client watches again
    }
    const filtered = filterClusterEvent(event, initial.set);
    if (filtered === undefined) return;
    res.write(`${JSON.stringify(request.stripRowObjects ? { ...(filtered as object), object: withoutRowObjects((filtered as { object?: unknown }).object) } : filtered)}\n`);
  };
  stream.on('data', (chunk: Buffer) => { for (const line of splitter.push(chunk)) write(line); });
  stream.on('end', () => { for (const line of splitter.end()) write(line); finish(); });
  stream.on('error', finish);
  req.on('close', finish);
  res.on('close', finish);
}
