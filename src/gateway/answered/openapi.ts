// OpenAPI for tenants, from the upstream's own documents: group-versions of
// other tenants' CRD groups are removed, the tenant's own are shown unprefixed,
// built-in ones pass as they are (their schemas are the same for everyone).
// KubeZoo showed every tenant's CRD schemas here; this does not.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { ApiError } from '../../core/api-error.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { isBuiltinGroup, isCustomGroup } from '../../core/tenancy/resource-classes.ts';
import { toUpstreamGroup } from '../../core/tenancy/names.ts';
import { encodeOpenApiV2Protobuf, isOpenApiV2ProtobufType, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from '../../core/openapi-protobuf/index.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { sendJsonBody } from '../respond.ts';
import { visibleGroupOf, tenantViewOfText } from './openapi-groups.ts';
import { createUpstreamSwagger } from './openapi-upstream-v2.ts';

type Obj = Record<string, unknown>;

export interface OpenApiService {
  serve(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, path: string): Promise<void>;
}

const notFound = (): ApiError => new ApiError('NotFound', 'the server could not find the requested resource', {});

function sha512(text: string): string {
  return createHash('sha512').update(text).digest('hex').toUpperCase();
}

/** The caller already holds this ETag (kube answers 304 then, for JSON and protobuf alike: one ETag for both). */
function ifNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  return header !== undefined && header.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*');
}

function wantsProtobuf(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').split(',').some((part) => isOpenApiV2ProtobufType((part.split(';')[0] ?? '').trim().toLowerCase()));
}

/**
 * A definition as the tenant sees it, or undefined when it is only another tenant's (or a hidden
 * group's). Shared ones (DeleteOptions, WatchEvent) list a GVK for every group, hidden ones
 * included ("extensions", "imagepolicy.k8s.io" on 1.20): they stay, with those GVKs removed.
 * Dropping them instead left every `$ref` to DeleteOptions dangling, and kubectl refuses to
 * validate anything with such a document ("unknown model in reference").
 */
function visibleDefinition(id: string, schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const gvks = (schema as Obj)['x-kubernetes-group-version-kind'];
  if (!Array.isArray(gvks)) return schema;
  const visible = gvks.filter((g) => visibleGroupOf(id, String((g as { group?: unknown } | null)?.group ?? '')) !== undefined);
  if (visible.length === gvks.length) return schema;
  if (visible.length === 0) return undefined;
  return { ...(schema as Obj), 'x-kubernetes-group-version-kind': visible };
}

/** The v2 document in the tenant's view, as JSON text: definitions and paths of other tenants' groups removed. */
export function tenantSwaggerJson(id: string, swagger: Obj): string {
  const definitions: Obj = {};
  for (const [name, schema] of Object.entries((swagger.definitions ?? {}) as Obj)) {
    const kept = visibleDefinition(id, schema);
    if (kept !== undefined) definitions[name] = kept;
  }
  const paths: Obj = {};
  for (const [path, item] of Object.entries((swagger.paths ?? {}) as Obj)) {
    const group = /^\/apis\/([^/]+)\//.exec(path)?.[1];
    if (group !== undefined && visibleGroupOf(id, group) === undefined) continue;
    paths[path] = item;
  }
  // What remains can only name this tenant's prefixed groups: show them unprefixed.
  return tenantViewOfText(id, JSON.stringify({ ...swagger, definitions, paths }));
}

/** The v2 document in the tenant's view (tenantSwaggerJson, parsed). */
export function tenantSwagger(id: string, swagger: Obj): Obj {
  return JSON.parse(tenantSwaggerJson(id, swagger)) as Obj;
}

export function createOpenApiService(upstream: Upstream): OpenApiService {
  const upstreamV2 = createUpstreamSwagger(upstream);
  // Per tenant, for one upstream ETag: the tenant's JSON and, once asked for, its protobuf.
  const v2Cache = new Map<string, { upstreamEtag: string; json: string; etag: string; protobuf?: Uint8Array }>();
  const v3Docs = new Map<string, { json: string; hash: string }>(); // tenant + upstream hash → translated doc

  const serveV2 = async (req: IncomingMessage, res: ServerResponse, ctx: TenantContext): Promise<void> => {
    const { etag: upstreamEtag, swagger } = await upstreamV2();
    let entry = v2Cache.get(ctx.id);
    if (!entry || entry.upstreamEtag !== upstreamEtag) {
      const json = tenantSwaggerJson(ctx.id, swagger);
      entry = { upstreamEtag, json, etag: `"${sha512(json)}"` };
      v2Cache.set(ctx.id, entry);
    }
    if (ifNoneMatch(req, entry.etag)) {
      res.writeHead(304, { ETag: entry.etag, Vary: 'Accept' });
      res.end();
      return;
    }
    if (wantsProtobuf(req)) {
      entry.protobuf ??= encodeOpenApiV2Protobuf(JSON.parse(entry.json) as Obj);
      res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF_CONTENT_TYPE, 'Content-Length': entry.protobuf.byteLength, ETag: entry.etag, Vary: 'Accept' });
      res.end(entry.protobuf);
      return;
    }
    sendJsonBody(res, 200, entry.json, { ETag: entry.etag, Vary: 'Accept' });
  };

  const serveV3Index = async (res: ServerResponse, ctx: TenantContext): Promise<void> => {
    const index = await upstream.request<{ paths?: Record<string, { serverRelativeURL: string }> }>('GET', '/openapi/v3', undefined, { Accept: 'application/json' });
    // An upstream without OpenAPI v3 (before 1.24, or emulating such a release): the tenant must see none either,
    // not an empty index (kubectl 1.27+ would then explain from v3 and find nothing).
    if (index.status !== 200) throw notFound();
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [key, entry] of Object.entries(index.body.paths ?? {})) {
      const group = /^apis\/([^/]+)\//.exec(key)?.[1];
      const visible = group === undefined ? '' : visibleGroupOf(ctx.id, group);
      if (visible === undefined) continue;
      const tenantKey = group === undefined ? key : key.replace(`apis/${group}/`, `apis/${visible}/`);
      const doc = await translatedV3(ctx, key, entry.serverRelativeURL);
      paths[tenantKey] = { serverRelativeURL: `/openapi/v3/${tenantKey}?hash=${doc.hash}` };
    }
    sendJsonBody(res, 200, { paths });
  };

  const translatedV3 = async (ctx: TenantContext, upstreamKey: string, serverRelativeURL: string): Promise<{ json: string; hash: string }> => {
    const upstreamHash = new URL(serverRelativeURL, 'https://x.invalid').searchParams.get('hash') ?? '';
    const cacheKey = `${ctx.id}\n${upstreamKey}\n${upstreamHash}`;
    const hit = v3Docs.get(cacheKey);
    if (hit && upstreamHash) return hit;
    const answer = await upstream.request<Obj>('GET', serverRelativeURL, undefined, { Accept: 'application/json' });
    if (answer.status !== 200) throw notFound();
    const json = tenantViewOfText(ctx.id, JSON.stringify(answer.body));
    const doc = { json, hash: sha512(json) };
    v3Docs.set(cacheKey, doc);
    return doc;
  };

  const serveV3Doc = async (req: IncomingMessage, res: ServerResponse, ctx: TenantContext, key: string): Promise<void> => {
    const group = /^apis\/([^/]+)\//.exec(key)?.[1];
    let upstreamKey = key;
    if (group !== undefined) {
      // A group that is not built in can only be the caller's own: prefixed with its id, whatever it spells.
      if (isCustomGroup(group)) upstreamKey = key.replace(`apis/${group}/`, `apis/${toUpstreamGroup(ctx.id, group)}/`);
      // Neither the caller's nor built in (a reserved group, another tenant's spelled with its id): nobody's.
      else if (!isBuiltinGroup(group)) throw notFound();
    }
    const index = await upstream.request<{ paths?: Record<string, { serverRelativeURL: string }> }>('GET', '/openapi/v3', undefined, { Accept: 'application/json' });
    const entry = index.body.paths?.[upstreamKey];
    if (!entry) throw notFound();
    const doc = await translatedV3(ctx, upstreamKey, entry.serverRelativeURL);
    const requested = new URL(req.url ?? '/', 'https://x.invalid').searchParams.get('hash');
    sendJsonBody(res, 200, doc.json, { ETag: `"${doc.hash}"`, 'Cache-Control': requested === doc.hash ? 'public, immutable' : 'no-cache, private' });
  };

  return {
    async serve(req, res, ctx, path) {
      if (path === '/openapi/v2') return serveV2(req, res, ctx);
      if (path === '/openapi/v3' || path === '/openapi/v3/') return serveV3Index(res, ctx);
      if (path.startsWith('/openapi/v3/')) return serveV3Doc(req, res, ctx, path.slice('/openapi/v3/'.length).replace(/\/$/, ''));
      throw notFound();
    },
  };
}
