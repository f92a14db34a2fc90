// Streams a watch as newline-delimited JSON events. The stream ends at
// timeoutSeconds (or a random 30–60 min, as kube-apiserver's default), when the
// client goes away, or when the server stops. A version too old to resume from
// is reported as an ERROR event carrying a 410 Expired Status, as kube does.
import { ApiError, toApiError } from '../../core/api-error.ts';
import { bookmark, type StoredWatchEvent } from '../registry/watch.ts';
import type { WatchQuery } from '../registry/resource-api.ts';
import { negotiateResourceFormat } from './respond.ts';
import type { ResourceContext } from './resource-handlers.ts';
import { PROGRESS_NOTIFY_HEADER, type ProgressNotifier } from './progress-notify.ts';

export interface WatchSettings {
  bookmarkIntervalMs: number;
  /** Called when the server shuts down: every open watch ends cleanly. */
  onShutdown(listener: () => void): () => void;
  /** Watches that asked for prompt progress bookmarks. */
  progress: ProgressNotifier;
}

export function serveWatch(ctx: ResourceContext, query: WatchQuery & { timeoutSeconds?: number }): void {
  const format = negotiateResourceFormat(ctx.req.headers.accept);
  const { res, def, registry, watches: settings } = ctx;
  let open = true;
  let first = true;
  // The newest version this watch has told its client about (events or bookmarks).
  let told = 0;
  const write = (event: StoredWatchEvent): void => {
    if (!open) return;
    if (format !== 'table' && event.json !== undefined && event.revision !== undefined) {
      // The stored text as it is: no parse and no serialisation per watcher of a large object (ADR 0026).
      told = Math.max(told, event.revision);
      res.write(`{"type":${JSON.stringify(event.type)},"object":${event.json}}\n`);
      return;
    }
    told = Math.max(told, Number(event.object.metadata?.resourceVersion ?? 0) || 0);
    let object: unknown = event.object;
    if (format === 'table' && (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED')) {
      object = ctx.tables.toTable(def, [event.object], ctx.query, {}, !first);
      first = false;
    }
    res.write(`${JSON.stringify({ type: event.type, object })}\n`);
  };
  const progress = query.allowWatchBookmarks === true && ctx.req.headers[PROGRESS_NOTIFY_HEADER] === 'true';
  res.writeHead(200, {
    'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked',
    ...(progress ? { [PROGRESS_NOTIFY_HEADER]: 'true' } : {}),
  });
  // Clients wait for the headers before reading events: send them now, not with the first event.
  res.flushHeaders();
  let stop: () => void = () => undefined;
  const timers: NodeJS.Timeout[] = [];
  const finish = (): void => {
    if (!open) return;
    open = false;
    stop();
    for (const timer of timers) clearTimeout(timer);
    unsubscribeShutdown();
    unsubscribeProgress();
    res.end();
  };
  const unsubscribeShutdown = settings.onShutdown(finish);
  let unsubscribeProgress: () => void = () => undefined;
  try {
    stop = registry.watch(def, query, write);
  } catch (err) {
    const apiError = toApiError(err);
    if (apiError instanceof ApiError && apiError.code === 410) {
      res.write(`${JSON.stringify({ type: 'ERROR', object: apiError.toStatus() })}\n`);
      finish();
      return;
    }
    open = false;
    unsubscribeShutdown();
    res.end(`${JSON.stringify({ type: 'ERROR', object: apiError.toStatus() })}\n`);
    return;
  }
  if (progress) {
    unsubscribeProgress = settings.progress.add(() => {
      const revision = registry.store.revision();
      if (revision > told) write({ type: 'BOOKMARK', object: bookmark(def, revision) });
    });
  }
  const timeoutMs = query.timeoutSeconds !== undefined && query.timeoutSeconds > 0
    ? query.timeoutSeconds * 1000
    : (1800 + Math.random() * 1800) * 1000;
  const deadline = Date.now() + timeoutMs;
  if (query.allowWatchBookmarks) {
    // Like kube's watch cache: a bookmark every interval, and one 2 s before the deadline, so the
    // client can resume from the newest version when the server ends the watch.
    const nextDelay = (): number => Math.max(0, Math.min(settings.bookmarkIntervalMs, deadline - 2_000 - Date.now()));
    const tick = (): void => {
      write({ type: 'BOOKMARK', object: bookmark(def, registry.store.revision()) });
      const delay = nextDelay();
      if (delay > 0) timers[0] = setTimeout(tick, delay);
    };
    if (deadline - 2_000 - Date.now() > 0 || settings.bookmarkIntervalMs < timeoutMs) timers[0] = setTimeout(tick, nextDelay());
  }
  timers[1] = setTimeout(finish, timeoutMs);
  ctx.req.on('close', finish);
  res.on('close', finish);
}
