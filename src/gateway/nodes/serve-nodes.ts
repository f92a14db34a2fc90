// Serving a tenant's reads of nodes (get, list, watch, as objects, Tables or
// metadata) from its virtual nodes (core/tenancy/node-view.ts, ADR 30). The
// host's Node objects are never read for a tenant: the only upstream read is
// the tenant's own pods (from the shared cache when it serves them), so no
// answer here can carry another tenant's or the host's data.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '../../core/api-error.ts';
import { parseRequestInfo } from '../../core/request-info.ts';
import type { KubeList, KubeObject } from '../../core/types.ts';
import { toTable, type IncludeObject } from '../../core/table/index.ts';
import { nodeListVersion, nodeMatcher, virtualNodes } from '../../core/tenancy/node-view.ts';
import { translateRequest, type ForwardedRequest, type ViewRead } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { SharedCache } from '../cache/shared-cache.ts';
import { sendJsonBody } from '../respond.ts';
import { setDrainHook } from '../fairness/drain-hook.ts';

export type ServeNodes = (req: IncomingMessage, res: ServerResponse, ctx: TenantContext, view: ViewRead, query: URLSearchParams) => Promise<void>;

export interface NodeViewDeps {
  upstream: Upstream;
  cache: SharedCache;
  /** The upstream's /version (its gitVersion is the virtual kubelets'). */
  version(): Promise<unknown>;
  /** How often a watch looks at the tenant's pods again (default 2 s). */
  watchPollMs?: number;
}

const NODES = { group: '', resource: 'nodes', custom: false };

/** The tenant's pods across its namespaces: the cache's copy when it serves them, else one upstream LIST by tenant label. */
async function tenantPods(deps: NodeViewDeps, ctx: TenantContext): Promise<{ items: KubeObject[]; resourceVersion?: string }> {
  const query = new URLSearchParams();
  const fwd = translateRequest(ctx, parseRequestInfo('GET', '/api/v1/pods', query), query) as ForwardedRequest;
  const cached = await deps.cache.list(ctx, fwd);
  const list = cached ?? (await deps.upstream.request<KubeList>('GET', `${fwd.path}?${fwd.query.toString()}`)).body;
  const rv = list.metadata?.resourceVersion;
  return { items: Array.isArray(list.items) ? list.items : [], ...(rv ? { resourceVersion: rv } : {}) };
}

async function kubeletVersion(deps: NodeViewDeps): Promise<string> {
  const version = (await deps.version()) as { gitVersion?: unknown } | undefined;
  return typeof version?.gitVersion === 'string' ? version.gitVersion : 'v0.0.0';
}

async function currentNodes(deps: NodeViewDeps, ctx: TenantContext): Promise<{ nodes: KubeObject[]; resourceVersion: string }> {
  const [pods, version] = await Promise.all([tenantPods(deps, ctx), kubeletVersion(deps)]);
  const nodes = virtualNodes(pods.items, { tenantId: ctx.id, kubeletVersion: version });
  return { nodes, resourceVersion: nodeListVersion(nodes, pods.resourceVersion) };
}

type Shape = { as: 'object' } | { as: 'table'; include: IncludeObject } | { as: 'metadata' };

function shapeOf(req: IncomingMessage, query: URLSearchParams): Shape {
  const accept = req.headers.accept ?? '';
  if (/as=Table/.test(accept)) {
    const asked = query.get('includeObject');
    return { as: 'table', include: asked === 'None' || asked === 'Object' ? asked : 'Metadata' };
  }
  if (/as=PartialObjectMetadata/.test(accept)) return { as: 'metadata' };
  return { as: 'object' };
}

function metadataOf(node: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: node.metadata };
}

function listBody(shape: Shape, nodes: KubeObject[], resourceVersion: string): unknown {
  if (shape.as === 'table') return toTable(NODES, nodes, { includeObject: shape.include, listMeta: { resourceVersion } });
  if (shape.as === 'metadata') return { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion }, items: nodes.map(metadataOf) };
  return { kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion }, items: nodes };
}

function objectBody(shape: Shape, node: KubeObject): unknown {
  if (shape.as === 'table') return toTable(NODES, [node], { includeObject: shape.include });
  if (shape.as === 'metadata') return metadataOf(node);
  return node;
}

export function createNodeView(deps: NodeViewDeps): ServeNodes {
  return async (req, res, ctx, view, query) => {
    const shape = shapeOf(req, query);
    // A named watch is a watch on metadata.name, as kube-apiserver turns it.
    const fieldSelector = [query.get('fieldSelector') ?? '', view.verb === 'watch' && view.name ? `metadata.name=${view.name}` : ''].filter(Boolean).join(',');
    const matches = nodeMatcher({ labelSelector: query.get('labelSelector'), fieldSelector });
    if (view.verb === 'watch') return serveWatch(deps, { req, res, ctx, shape, matches, query });
    const { nodes, resourceVersion } = await currentNodes(deps, ctx);
    if (view.verb === 'get') {
      const node = nodes.find((n) => n.metadata?.name === view.name);
      if (!node) throw notFound({ resource: 'nodes', name: view.name });
      sendJsonBody(res, 200, objectBody(shape, node));
      return;
    }
    sendJsonBody(res, 200, listBody(shape, nodes.filter(matches), resourceVersion));
  };
}

interface WatchRequest {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: TenantContext;
  shape: Shape;
  matches: (node: KubeObject) => boolean;
  query: URLSearchParams;
}

/**
 * A watch of the virtual nodes: the tenant's pods are looked at again every few
 * seconds and the difference sent (ADDED, MODIFIED, DELETED, also when a node
 * stops matching the selectors, as kube does). Without a resourceVersion (or
 * "0") the current nodes come first as ADDED; with one, the client is taken to
 * hold the nodes it listed.
 */
async function serveWatch(deps: NodeViewDeps, w: WatchRequest): Promise<void> {
  const first = await currentNodes(deps, w.ctx);
  const rv = w.query.get('resourceVersion') ?? '';
  const timeoutSeconds = Number(w.query.get('timeoutSeconds') ?? '');
  w.res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  w.res.flushHeaders();
  let known = new Map(first.nodes.filter(w.matches).map((n) => [n.metadata?.name ?? '', n]));
  const send = (type: string, node: KubeObject): void => {
    const object = w.shape.as === 'table' ? toTable(NODES, [node], { includeObject: w.shape.include }) : w.shape.as === 'metadata' ? metadataOf(node) : node;
    w.res.write(`${JSON.stringify({ type, object })}\n`);
  };
  if (rv === '' || rv === '0') for (const node of known.values()) send('ADDED', node);
  let closed = false;
  let polling = false;
  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    if (deadline) clearTimeout(deadline);
    w.res.end();
  };
  const poll = async (): Promise<void> => {
    if (closed || polling) return;
    polling = true;
    try {
      const now = new Map((await currentNodes(deps, w.ctx)).nodes.filter(w.matches).map((n) => [n.metadata?.name ?? '', n]));
      if (closed) return;
      for (const [name, node] of now) {
        const before = known.get(name);
        if (!before) send('ADDED', node);
        else if (before.metadata?.resourceVersion !== node.metadata?.resourceVersion) send('MODIFIED', node);
      }
      for (const [name, node] of known) if (!now.has(name)) send('DELETED', node);
      known = now;
    } catch {
      finish(); // the client watches again, as after any ended watch
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), deps.watchPollMs ?? 2_000);
  const deadline = Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? setTimeout(finish, timeoutSeconds * 1000) : undefined;
  w.req.on('close', finish);
  w.res.on('close', finish);
  // Graceful shutdown ends the watch with its final chunk; the client watches again elsewhere.
  setDrainHook(w.res, finish);
}
