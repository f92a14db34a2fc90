// The verbs of a resource request, each a thin adapter from HTTP onto the registry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, methodNotAllowed } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Registry } from '../registry/registry.ts';
import type { WriteOptions } from '../registry/resource-api.ts';
import { isJsonStore } from '../store/json-store.ts';
import { decodeBody, decodeBodyInSteps, patchKindOf, readBody } from '../../http/request-body.ts';
import { isLarge, yieldIfLarge, yieldToLoop } from '../../http/yield-to-loop.ts';
import { negotiateResourceFormat, sendJson } from './respond.ts';
import { applyFieldManager, deleteOptions, listQuery, watchQuery, writeOptions } from './query-options.ts';
import { serveWatch, type WatchSettings } from './watch-stream.ts';
import type { TablePrinter } from './table-printer.ts';

export interface ResourceContext {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  query: URLSearchParams;
  def: ResourceDef;
  registry: Registry;
  tables: TablePrinter;
  watches: WatchSettings;
}

/** Registries that answer DELETE with the deleted object rather than a Status (kube's ReturnDeletedObject). */
const RETURNS_DELETED_OBJECT = new Set(['pods', 'podtemplates', 'persistentvolumes', 'namespaces']);


function warningHeaders(options: WriteOptions): Record<string, string> {
  const warnings = options.warnings ?? [];
  if (warnings.length === 0) return {};
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}

function sendObject(ctx: ResourceContext, code: number, obj: KubeObject, headers: Record<string, string> = {}): void {
  const format = negotiateResourceFormat(ctx.req.headers.accept);
  if (format === 'table') {
    sendJson(ctx.res, code, ctx.tables.toTable(ctx.def, [obj], ctx.query, {}), headers);
    return;
  }
  if (format === 'partial-metadata') {
    sendJson(ctx.res, code, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata }, headers);
    return;
  }
  sendJson(ctx.res, code, ctx.registry.storedText(ctx.def, obj) ?? obj, headers);
}

/**
 * A large body is read, parsed (in slices: json-slices.ts), written and answered in separate
 * turns of the loop (yield-to-loop.ts): a neighbour's GET waits for one step, not for all of
 * them (issue 13). The registry's write of a large body takes turns too, between its phases
 * (registry/write-turns.ts), and commits only if the object is still the version it read.
 */
async function bodyOf(ctx: ResourceContext): Promise<{ body: unknown; large: boolean }> {
  const raw = await readBody(ctx.req);
  await yieldIfLarge(raw.length);
  const body = await decodeBodyInSteps(raw, ctx.req.headers['content-type'], ctx.def);
  await yieldIfLarge(raw.length);
  // Large by the bytes read, not by Content-Length: a chunked body has none and must not take the one-step path.
  return { body, large: isLarge(raw.length) };
}

/** The turn before a large write's answer is serialised. */
function yieldBeforeAnswer(large: boolean): Promise<void> {
  return large ? yieldToLoop() : Promise.resolve();
}

export async function handleResource(ctx: ResourceContext): Promise<void> {
  const { info, def, registry, query } = ctx;
  const namespace = def.namespaced ? info.namespace : '';
  if (def.namespaced && info.name !== '' && namespace === '') throw new ApiError('NotFound', 'the server could not find the requested resource');
  const collectionVerbs = new Set(['list', 'watch', 'create', 'deletecollection']);
  const needsName = new Set(['get', 'update', 'patch', 'delete']);
  if ((info.name === '' && needsName.has(info.verb)) || (info.name !== '' && collectionVerbs.has(info.verb) && info.verb !== 'watch')) {
    throw methodNotAllowed();
  }
  switch (info.verb) {
    case 'get': {
      const text = negotiateResourceFormat(ctx.req.headers.accept) === 'json' ? registry.getJson(def, namespace, info.name) : undefined;
      if (text !== undefined) sendJson(ctx.res, 200, text);
      else sendObject(ctx, 200, registry.get(def, namespace, info.name));
      return;
    }
    case 'list': {
      const format = negotiateResourceFormat(ctx.req.headers.accept);
      const text = format === 'json' ? registry.listJson(def, listQuery(query, namespace)) : undefined;
      if (text !== undefined) {
        sendJson(ctx.res, 200, text);
        return;
      }
      const list = registry.list(def, listQuery(query, namespace));
      if (format === 'table') sendJson(ctx.res, 200, ctx.tables.toTable(def, list.items, query, list.metadata));
      else if (format === 'partial-metadata') {
        sendJson(ctx.res, 200, { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: list.metadata, items: list.items.map((item) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: item.metadata })) });
      } else sendJson(ctx.res, 200, list);
      return;
    }
    case 'watch': {
      const watch = watchQuery(query, namespace);
      // A watch of one object (legacy /watch/.../NAME or GET NAME?watch=1) is a watch with a name field selector.
      if (info.name) watch.fieldSelector = [watch.fieldSelector, `metadata.name=${info.name}`].filter(Boolean).join(',');
      serveWatch(ctx, watch);
      return;
    }
    case 'create': {
      const options = writeOptions(query, ctx.req.headers['user-agent'], '');
      applyFieldManager(options, ctx.req.headers['user-agent'], false);
      const { body, large } = await bodyOf(ctx);
      const input = body as KubeObject;
      const created = large ? await registry.createInTurns(def, namespace, input, options, yieldToLoop) : registry.create(def, namespace, input, options);
      await yieldBeforeAnswer(large);
      sendObject(ctx, 201, created, warningHeaders(options));
      return;
    }
    case 'update': {
      const options = writeOptions(query, ctx.req.headers['user-agent'], '');
      applyFieldManager(options, ctx.req.headers['user-agent'], false);
      const { body, large } = await bodyOf(ctx);
      const existed = registryHas(registry, def, namespace, info.name);
      const input = body as KubeObject;
      const updated = large ? await registry.updateInTurns(def, namespace, info.name, input, options, yieldToLoop) : registry.update(def, namespace, info.name, input, options);
      await yieldBeforeAnswer(large);
      sendObject(ctx, existed ? 200 : 201, updated, warningHeaders(options));
      return;
    }
    case 'patch': {
      const type = patchKindOf(ctx.req.headers['content-type']);
      if (!type) {
        throw new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`);
      }
      const options = writeOptions(query, ctx.req.headers['user-agent'], '');
      applyFieldManager(options, ctx.req.headers['user-agent'], type === 'apply');
      const { body, large } = await bodyOf(ctx);
      const existed = registryHas(registry, def, namespace, info.name);
      const patched = large ? await registry.patchInTurns(def, namespace, info.name, { type, body }, options, yieldToLoop) : registry.patch(def, namespace, info.name, type, body, options);
      await yieldBeforeAnswer(large);
      sendObject(ctx, existed ? 200 : 201, patched, warningHeaders(options));
      return;
    }
    case 'delete': {
      const raw = await readBody(ctx.req);
      const body = raw.length > 0 ? decodeBody(raw, ctx.req.headers['content-type'] ?? 'application/json', { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }) : undefined;
      const result = registry.remove(def, namespace, info.name, deleteOptions(query, body));
      if (!result.deleted || def.custom || RETURNS_DELETED_OBJECT.has(def.resource)) {
        sendObject(ctx, 200, result.object);
        return;
      }
      const details: Record<string, string> = { name: info.name, kind: def.resource };
      if (def.group) details.group = def.group;
      if (result.object.metadata.uid) details.uid = result.object.metadata.uid;
      sendJson(ctx.res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details });
      return;
    }
    case 'deletecollection': {
      const raw = await readBody(ctx.req);
      const body = raw.length > 0 ? decodeBody(raw, ctx.req.headers['content-type'] ?? 'application/json', { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }) : undefined;
      sendJson(ctx.res, 200, registry.deleteCollection(def, listQuery(query, namespace), deleteOptions(query, body)));
      return;
    }
    default:
      throw methodNotAllowed();
  }
}

/** Whether the object exists, without parsing it (a 1 MB object's parse is ~30 ms in the write's first step). */
function registryHas(registry: Registry, def: ResourceDef, namespace: string, name: string): boolean {
  const key = registry.key(def, namespace, name);
  return isJsonStore(registry.store) ? registry.store.getJson(key) !== undefined : registry.store.get(key) !== undefined;
}
