// The one call the forwarder makes: a tenant's LIST or WATCH (all namespaces,
// cluster-scoped, or one namespace once its cache is open) answered from the shared cache, in kube-apiserver's wire format
// (a JSON list, or newline-delimited JSON events on a chunked stream). It
// answers false, having written nothing, for what the cache does not serve:
// the request is then forwarded as before. Tables (kubectl get) are among
// those: their columns are the upstream's to print.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../../core/request-info.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { sendJsonBody } from '../respond.ts';
import type { SharedCache } from './shared-cache.ts';
import type { WatchSink } from './watch-session.ts';
import { setDrainHook } from '../fairness/drain-hook.ts';
import { overTenantBacklog } from '../fairness/tenant-backlog.ts';

export type ServeFromCache = (req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest) => Promise<boolean>;

export interface CacheServerOptions {
  /** Bytes a watch may have queued for a slow client before it is cut off (default 1 MiB). */
  maxWatchBufferBytes?: number;
}

/** Is this a read the cache can take: a collection read across the tenant's namespaces or cluster-scoped objects, not a Table. */
export function cacheable(req: IncomingMessage, info: RequestInfo, fwd: ForwardedRequest): boolean {
  if (info.verb !== 'list' && info.verb !== 'watch') return false;
  // Reads in one namespace wait for the cache to be open (createCacheServer): opened on demand
  // for them, it would make the first read wait for a whole upstream LIST.
  if (fwd.namespace !== '' || info.subresource !== '') return false;
  return !asTableOrMetadata(req);
}

/** Tables and PartialObjectMetadata are the upstream's to print: never from the cache. */
function asTableOrMetadata(req: IncomingMessage): boolean {
  return /as=(Table|PartialObjectMetadata)/.test(req.headers.accept ?? '');
}

/**
 * A read in one namespace is the same read across namespaces narrowed by a
 * metadata.namespace field selector (upstream spelling, like the rest of the
 * translated query): one cache per resource serves both.
 */
export function acrossNamespaces(fwd: ForwardedRequest): ForwardedRequest {
  if (!fwd.namespace || !fwd.namespaced) return fwd;
  const prefix = `/namespaces/${encodeURIComponent(fwd.namespace)}/`;
  const at = fwd.path.indexOf(prefix);
  if (at < 0) return fwd;
  const query = new URLSearchParams(fwd.query);
  const field = `metadata.namespace=${fwd.namespace}`;
  const existing = query.get('fieldSelector');
  query.set('fieldSelector', existing ? `${existing},${field}` : field);
  return { ...fwd, path: `${fwd.path.slice(0, at)}/${fwd.path.slice(at + prefix.length)}`, query, namespace: '' };
}

function httpWatchSink(res: ServerResponse, maxBufferBytes: number): WatchSink & { head(): void } {
  const head = (): void => {
    if (res.headersSent) return;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    // Clients count a watch as established once the head arrives (kubectl get -w prints nothing before).
    res.flushHeaders();
  };
  return {
    head,
    write(_event, line) {
      if (res.destroyed || res.writableEnded) return false;
      head();
      res.write(line);
      // A client that does not read would make the gateway hold every event for it (and a tenant's many such, ADR 0045).
      return res.writableLength <= maxBufferBytes && !overTenantBacklog(res);
    },
    end() {
      if (res.destroyed || res.writableEnded) return;
      head();
      res.end();
    },
  };
}

export function createCacheServer(cache: SharedCache, options: CacheServerOptions = {}): ServeFromCache {
  const maxBufferBytes = options.maxWatchBufferBytes ?? 1024 * 1024;
  return async (req, res, ctx, info, fwd) => {
    // A LIST or WATCH in one namespace is served from the resource's cache once it is open and
    // synced; the first one opens it in the background and is forwarded. A LIST only if the cache
    // provably caught up with the upstream (read-your-writes: a Warren upstream proves it at once,
    // another upstream only when nothing was written since the cache's last event); a WATCH only
    // from a version the cache can replay or provably reach. Anything else is forwarded, so a
    // watch resuming from before the cache's history is the upstream's to answer.
    let request = fwd;
    let requireFresh = false;
    if ((info.verb === 'list' || info.verb === 'watch') && fwd.namespace !== '' && info.subresource === '' && !asTableOrMetadata(req)) {
      request = acrossNamespaces(fwd);
      if (request === fwd) return false;
      if (!cache.isWarm(request)) {
        cache.warm(request);
        return false;
      }
      requireFresh = true;
    } else if (!cacheable(req, info, fwd)) return false;
    if (info.verb === 'list') {
      const text = await cache.listText(ctx, request, requireFresh);
      if (text === undefined) return false;
      sendJsonBody(res, 200, text);
      return true;
    }
    const sink = httpWatchSink(res, maxBufferBytes);
    const stop = await cache.watch(ctx, request, sink, requireFresh);
    if (!stop) return false;
    if (res.destroyed || res.writableEnded) {
      stop();
      return true;
    }
    sink.head();
    res.once('close', stop);
    // Graceful shutdown ends the session: the sink sends the final chunk and the client re-lists.
    setDrainHook(res, stop);
    return true;
  };
}
