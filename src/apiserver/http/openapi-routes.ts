// /openapi/v2 and /openapi/v3: documents built by openapi/ from the catalog and
// the established CRDs' schemas, rebuilt only when the catalog changes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { ApiError } from '../../core/api-error.ts';
import { openApiV2, openApiV3GroupVersion, openApiV3Index, type CrdSchema } from '../openapi/index.ts';
import type { Registry } from '../registry/registry.ts';
import type { CustomResourceDefinition } from '../crd/crd-types.ts';
import { parseAccept, sendError } from './respond.ts';
import type { Emulation } from '../emulation.ts';
import { encodeOpenApiV2Protobuf, isOpenApiV2ProtobufType, OPENAPI_V2_PROTOBUF_CONTENT_TYPE } from '../../core/openapi-protobuf/index.ts';

export interface OpenApiServer {
  serve(req: IncomingMessage, res: ServerResponse, path: string): void;
}

function crdSchemas(registry: Registry): CrdSchema[] {
  const out: CrdSchema[] = [];
  for (const def of registry.catalog.all()) {
    if (!def.custom) continue;
    const crd = registry.store.get({ resource: 'customresourcedefinitions.apiextensions.k8s.io', namespace: '', name: `${def.resource}.${def.group}` }) as CustomResourceDefinition | undefined;
    const version = crd?.spec.versions?.find((v) => v.name === def.version);
    const entry: CrdSchema = { group: def.group, version: def.version, kind: def.kind, plural: def.resource, namespaced: def.namespaced, listKind: def.listKind };
    const schema = version?.schema?.openAPIV3Schema;
    if (schema) entry.schema = schema as Record<string, unknown>;
    out.push(entry);
  }
  return out;
}

type Obj = Record<string, unknown>;

/**
 * The v2 document as an emulated release publishes it: without the fieldValidation
 * parameter (before 1.25 no operation listed it, and kubectl then validates on the
 * client from this document) and with that release's version in info.
 */
function asEmulated(doc: Obj, emulation: Emulation): Obj {
  if (emulation.fieldValidation) return doc;
  const paths: Obj = {};
  for (const [path, item] of Object.entries(doc.paths as Obj)) {
    const operations: Obj = {};
    for (const [key, op] of Object.entries(item as Obj)) {
      const params = (op as { parameters?: unknown } | null)?.parameters;
      operations[key] = Array.isArray(params)
        ? { ...(op as Obj), parameters: params.filter((p) => (p as { name?: unknown } | null)?.name !== 'fieldValidation') }
        : op;
    }
    paths[path] = operations;
  }
  return { ...doc, info: { ...(doc.info as Obj), version: emulation.version.gitVersion }, paths };
}

/** What a server without /openapi/v3 answers there (before 1.24: no handler, the mux's plain 404). */
function sendNoOpenApiV3(res: ServerResponse): void {
  const body = '404 page not found\n';
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function acceptsJson(req: IncomingMessage): boolean {
  return parseAccept(req.headers.accept).some((a) => a.type === 'application/json' || a.type === '*/*' || a.type === 'application/*');
}

export function createOpenApiServer(registry: Registry, emulation: Emulation): OpenApiServer {
  let v2: { json: string; etag: string; protobuf?: Uint8Array } | undefined;
  registry.catalog.onChange(() => {
    v2 = undefined;
  });
  const send = (req: IncomingMessage, res: ServerResponse, json: string, etag: string, immutable: boolean): void => {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      res.end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(json),
      ETag: etag,
      Vary: 'Accept',
      'Cache-Control': immutable ? 'public, immutable' : 'no-cache, private',
    });
    res.end(json);
  };
  const sendBytes = (req: IncomingMessage, res: ServerResponse, bytes: Uint8Array, etag: string): void => {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF_CONTENT_TYPE, 'Content-Length': bytes.byteLength, ETag: etag, Vary: 'Accept', 'Cache-Control': 'no-cache, private' });
    res.end(bytes);
  };
  return {
    serve(req, res, path) {
      try {
        const resources = registry.catalog.all();
        if (path === '/openapi/v2') {
          if (!v2) {
            const doc = asEmulated(openApiV2(resources, crdSchemas(registry)), emulation);
            const json = JSON.stringify(doc);
            v2 = { json, etag: `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"` };
          }
          // client-go asks for protobuf only, and cannot read JSON here (kubectl < 1.32 validates from it).
          if (parseAccept(req.headers.accept).some((a) => isOpenApiV2ProtobufType(a.type))) {
            v2.protobuf ??= encodeOpenApiV2Protobuf(JSON.parse(v2.json) as Record<string, unknown>);
            sendBytes(req, res, v2.protobuf, v2.etag);
            return;
          }
          if (!acceptsJson(req)) throw new ApiError('NotAcceptable', 'only application/json and protobuf are served for OpenAPI v2');
          send(req, res, v2.json, v2.etag, false);
          return;
        }
        if (!emulation.openApiV3) {
          sendNoOpenApiV3(res);
          return;
        }
        if (!acceptsJson(req)) throw new ApiError('NotAcceptable', 'only application/json is served for OpenAPI v3 documents');
        if (path === '/openapi/v3' || path === '/openapi/v3/') {
          const json = JSON.stringify(openApiV3Index(resources, crdSchemas(registry)));
          send(req, res, json, `"${createHash('sha256').update(json).digest('hex')}"`, false);
          return;
        }
        const doc = openApiV3GroupVersion(path, resources, crdSchemas(registry));
        if (!doc) throw new ApiError('NotFound', 'the server could not find the requested resource');
        const url = new URL(req.url ?? '/', 'https://x.invalid');
        send(req, res, doc.json, `"${doc.hash}"`, url.searchParams.get('hash') === doc.hash);
      } catch (err) {
        sendError(res, err);
      }
    },
  };
}
