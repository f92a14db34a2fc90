// Upstream answers, in the tenant's view. Requests go through the proxy adapter
// (http-proxy behind one file); JSON bodies (objects, lists, tables, Status
// errors) are translated, watch streams event by event, logs pass as bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, internalError } from '../../core/api-error.ts';
import type { KubeList, KubeObject, Status } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import { toTenantList, toTenantTable, toTenantWatchEvent } from '../../core/tenancy/response-translation.ts';
import { scrubText, toTenantStatus } from '../../core/tenancy/status-translation.ts';
import type { Proxy } from '../proxy/proxy-adapter.ts';
import { sendTranslatedJson } from '../proxy/json-response.ts';
import { isBareError, plainTextError } from '../proxy/plain-text-error.ts';
import { sendTranslatedWatch } from '../proxy/watch-response.ts';
import { sendJsonBody } from '../respond.ts';
import { type PreparedRequest, withQuery } from './prepared-request.ts';

export interface ResponsePipe {
  /** A JSON answer the gateway already holds (read-modify-write patches). */
  sendTranslated(res: ServerResponse, ctx: TenantContext, status: number, body: unknown): void;
  json(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, prepared: PreparedRequest, hint?: KindHint): void;
  watch(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, prepared: PreparedRequest, hint?: KindHint): void;
  stream(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, prepared: PreparedRequest): void;
}

/** The kind a request's objects have (upstream spelling), so partial objects in Tables can be translated. */
export interface KindHint {
  apiVersion: string;
  kind: string;
}

/**
 * Table rows carry PartialObjectMetadata, which does not say what it is: the
 * translator needs the real kind (a Namespace's name is prefixed, a Pod's is not).
 */
function translateTable(ctx: TenantContext, table: Record<string, unknown>, hint: KindHint | undefined): unknown {
  const rows = Array.isArray(table.rows) ? (table.rows as Array<{ object?: Record<string, unknown> }>) : [];
  const partial = new Set<Record<string, unknown>>();
  if (hint) {
    for (const row of rows) {
      if (isObject(row.object) && row.object.kind === 'PartialObjectMetadata') {
        row.object.apiVersion = hint.apiVersion;
        row.object.kind = hint.kind;
        partial.add(row.object);
      }
    }
  }
  const translated = toTenantTable(ctx, table as never) as unknown as { rows?: Array<{ object?: Record<string, unknown> }> };
  for (const row of translated.rows ?? []) {
    // Only the rows that came as PartialObjectMetadata go back to it: a whole object without spec or status
    // (a ConfigMap, a Secret) is still a whole object, and kubectl --sort-by cannot decode it under another kind.
    if (row.object && partial.has(row.object)) {
      row.object.apiVersion = 'meta.k8s.io/v1';
      row.object.kind = 'PartialObjectMetadata';
    }
  }
  return translated;
}

/** One upstream JSON body in tenant terms; a foreign object is reported as not found. */
export function translateBody(ctx: TenantContext, body: unknown, hint?: KindHint): unknown {
  if (!isObject(body)) return body;
  if (body.kind === 'Status') return toTenantStatus(ctx.id, body as unknown as Status, ctx.isTenantId);
  if (body.kind === 'Table') return translateTable(ctx, body, hint);
  if (Array.isArray(body.items)) return toTenantList(ctx, body as unknown as KubeList);
  if (!isObject(body.metadata)) return body;
  const view = toTenantObject(ctx, body as KubeObject);
  if (!view) throw new ApiError('NotFound', 'the server could not find the requested resource');
  return view;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A write's answer is the object it stored: if that cannot be shown, saying
 * 404 would be a lie (it was stored). The write path refuses such objects
 * before sending them (write-object.ts); should one still come back (the
 * upstream changed it), the tenant gets a 500 that says so.
 */
function translateWriteResult(ctx: TenantContext, body: unknown, hint?: KindHint): unknown {
  try {
    return translateBody(ctx, body, hint);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) throw internalError('the object was written, but the result cannot be shown in the tenant\'s view');
    throw err;
  }
}

/** Upstream is always spoken to in JSON; a Table request stays a Table request. */
function upstreamAccept(req: IncomingMessage): string {
  const accept = req.headers.accept ?? '';
  return /as=Table/.test(accept) ? 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' : 'application/json';
}

/**
 * Attribution for the upstream's audit log, when configured: Warren impersonates its own
 * upstream identity (so it keeps exactly its own permissions) with extra fields naming the
 * tenant and the tenant user. The upstream must let Warren impersonate itself and set
 * userextras/warren.dev~1tenant and userextras/warren.dev~1user.
 */
export interface AuditAttribution {
  /** Warren's own user name on the upstream (e.g. system:serviceaccount:warren-system:warren). */
  upstreamUser: string;
}

export function attributionHeaders(attribution: AuditAttribution | undefined, ctx: TenantContext): Record<string, string> {
  if (!attribution) return {};
  return {
    'impersonate-user': attribution.upstreamUser,
    'impersonate-extra-warren.dev%2ftenant': ctx.id,
    ...(ctx.user ? { 'impersonate-extra-warren.dev%2fuser': ctx.user } : {}),
  };
}

function target(req: IncomingMessage, prepared: PreparedRequest, extra: Record<string, string> = {}): { path: string; headers: Record<string, string>; body?: Buffer } {
  const headers: Record<string, string> = { accept: upstreamAccept(req), ...extra };
  const out: { path: string; headers: Record<string, string>; body?: Buffer } = { path: withQuery(prepared.path, prepared.query), headers };
  if (prepared.bodyConsumed) {
    out.body = prepared.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(prepared.body));
    headers['content-type'] = prepared.contentType ?? 'application/json';
  }
  return out;
}

export function createResponsePipe(proxy: Proxy, attribution?: AuditAttribution): ResponsePipe {
  return {
    sendTranslated(res, ctx, status, body) {
      // An upstream error without a Status (a real kube's text/plain `404 page not found`) is one in our words.
      if (isBareError(status, body)) {
        const err = plainTextError(status) ?? internalError('the server returned a response that could not be translated');
        sendJsonBody(res, err.code, err.toStatus());
        return;
      }
      sendJsonBody(res, status, translateWriteResult(ctx, body));
    },
    json(req, res, ctx, prepared, hint) {
      const translate = WRITE_METHODS.has(prepared.method.toUpperCase()) ? translateWriteResult : translateBody;
      proxy.forward(req, res, {
        ...target(req, prepared, attributionHeaders(attribution, ctx)),
        onResponse: (upstreamRes) => {
          void sendTranslatedJson(upstreamRes, res, { translate: (body) => translate(ctx, body, hint), scrubWarning: (w) => scrubText(ctx.id, w, ctx.isTenantId) });
        },
      });
    },
    watch(req, res, ctx, prepared, hint) {
      proxy.forward(req, res, {
        ...target(req, prepared, attributionHeaders(attribution, ctx)),
        stream: true,
        onResponse: (upstreamRes) => {
          void sendTranslatedWatch(upstreamRes, res, {
            translateEvent: (event) => {
              // Table watches (kubectl get -w) carry one-row Tables as event objects.
              if (isObject(event.object) && event.object.kind === 'Table') return { ...event, object: translateTable(ctx, event.object, hint) as KubeObject };
              return toTenantWatchEvent(ctx, event);
            },
            translateBody: (body) => translateBody(ctx, body, hint),
            scrubWarning: (w) => scrubText(ctx.id, w, ctx.isTenantId),
          });
        },
      });
    },
    stream(req, res, ctx, prepared) {
      proxy.forward(req, res, {
        ...target(req, prepared, attributionHeaders(attribution, ctx)),
        stream: true,
        headers: { accept: '*/*' },
        onResponse: (upstreamRes) => {
          if (String(upstreamRes.headers['content-type'] ?? '').includes('json')) {
            void sendTranslatedJson(upstreamRes, res, { translate: (body) => translateBody(ctx, body) });
            return;
          }
          res.writeHead(upstreamRes.statusCode ?? 200, { 'Content-Type': String(upstreamRes.headers['content-type'] ?? 'text/plain'), 'Cache-Control': 'no-cache, private' });
          upstreamRes.pipe(res);
        },
      });
    },
  };
}
