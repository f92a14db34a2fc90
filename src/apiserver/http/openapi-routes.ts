// /openapi/v2 and /openapi/v3: documents built by openapi/ from the catalog and
// the established CRDs' schemas, rebuilt only when the catalog changes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { ApiError } from '../../core/api-error.ts';
import { openApiV2, openApiV3GroupVersion, openApiV3Index, type CrdSchema } from '../openapi/index.ts';
import type { Registry } from '../registry/registry.ts';
import type { CustomResourceDefinition } from '../crd/crd-types.ts';
import { parseAccept, sendError } from './respond.ts';

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

function acceptsJson(req: IncomingMessage): boolean {
  return parseAccept(req.headers.accept).some((a) => a.type === 'application/json' || a.type === '*/*' || a.type === 'application/*');
}

export function createOpenApiServer(registry: Registry): OpenApiServer {
  let v2: { json: string; etag: string } | undefined;
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
  return {
    serve(req, res, path) {
      try {
        if (!acceptsJson(req)) throw new ApiError('NotAcceptable', 'only application/json is served for OpenAPI documents');
        const resources = registry.catalog.all();
        if (path === '/openapi/v2') {
          if (!v2) {
            const json = JSON.stringify(openApiV2(resources, crdSchemas(registry)));
            v2 = { json, etag: `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"` };
          }
          send(req, res, v2.json, v2.etag, false);
          return;
        }
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
