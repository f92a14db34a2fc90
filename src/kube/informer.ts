// A reflector and informer (client-go's ListAndWatch): a paginated LIST, then a
// WATCH from the list's resourceVersion, resumed from the last version seen
// (bookmarks included) when the stream ends, and a fresh LIST after 410 Gone.
// The store is replaced on each relist; objects missing from it get synthesized
// DELETED events, so consumers never keep a ghost.
//
// A watch the server ends (its timeout, a clean shutdown) is resumed quietly. A
// watch that is cut (upstream killed, connection reset), refused, expired, or
// cannot be re-opened is reported through onWatchLost: a cache serving watches
// from this informer must end them then (kube's cacher terminates its watchers
// when its reflector fails), or they would stay open, silent, on a dead upstream.
import type { IncomingMessage } from 'node:http';
import type { KubeList, KubeObject, Status, WatchEventType } from '../core/types.ts';
import type { Upstream } from './upstream.ts';
import { Backoff, type BackoffOptions } from '../core/backoff.ts';
import { IndexedStore, type IndexFunc } from './indexed-store.ts';
import { LineSplitter } from './line-splitter.ts';
import { statusError } from './status-error.ts';
import { PROGRESS_NOTIFY_HEADER } from '../core/progress-headers.ts';
import { levelled } from '../observability/log-line.ts';
import { parseJsonInSlices } from '../http/json-slices.ts';
import { isLarge } from '../http/yield-to-loop.ts';

export type InformerEventType = Exclude<WatchEventType, 'BOOKMARK' | 'ERROR'>;

export interface InformerOptions<T extends KubeObject> {
  upstream: Upstream;
  /** A collection path, e.g. /api/v1/configmaps or /apis/tenancy.warren.dev/v1alpha1/tenants. */
  listPath: string;
  labelSelector?: string;
  fieldSelector?: string;
  pageSize?: number; // default 500
  /**
   * `text`: the watch event's JSON line this object came in (the upstream's own serialisation, wrapper
   * included), so a consumer that sizes what it keeps need not walk the object; undefined for the events
   * a LIST synthesises. Read it, do not keep it.
   */
  onEvent?: (type: InformerEventType, obj: T, old: T | undefined, text?: string) => void;
  /**
   * Objects the consumer wants kept (client-go's transform, as a filter): the rest are never
   * stored nor reported, so an informer narrowed by what a selector cannot say costs only what
   * it keeps. An object that stops passing is reported DELETED.
   */
  keep?: (obj: T) => boolean;
  /**
   * Reshapes each kept object before it is stored or reported (client-go's SetTransform): drop
   * what the consumer never reads (managedFields, a Secret's data) so the store holds only that.
   * Runs once per object from a LIST or a watch event (DELETED included), after `keep`. It may
   * return the same object changed in place or a new one, but must keep metadata.name,
   * namespace and resourceVersion: keys and the relist comparison use them.
   */
  transform?: (obj: T) => T;
  log?: (line: string) => void;
  /** The upstream watch broke (cut, expired, failed, or cannot be re-opened); called again for each failed retry. */
  onWatchLost?: (reason: 'cut' | 'expired' | 'failed') => void;
  /** Server-side watch timeout; default a random 300–600 s so replicas do not reconnect together. */
  watchTimeoutSeconds?: number;
  backoff?: BackoffOptions;
  /**
   * Ask the upstream for progress bookmarks on request (PROGRESS_NOTIFY_HEADER): a Warren
   * apiserver then bookmarks this watch at its current version whenever a request carrying
   * the progress request has been answered (probeUpstreamVersion), so the informer can prove
   * it is current. Other apiservers ignore the header.
   */
  progressNotify?: boolean;
  /** Called after a BOOKMARK moved the informer's version. */
  onProgress?: () => void;
}

export interface Informer<T extends KubeObject> {
  /** Objects by key: "namespace/name", or "name" for cluster-scoped objects (client-go's MetaNamespaceKeyFunc). */
  readonly store: ReadonlyMap<string, T>;
  /** Resolves once the first LIST is in the store; rejects if the informer is stopped before. */
  synced(): Promise<void>;
  /** The resourceVersion the informer is current at (last list, event or bookmark). */
  lastSyncResourceVersion(): string;
  /** Did the open watch's upstream agree to send prompt progress bookmarks? */
  notifiesProgress(): boolean;
  addIndex(name: string, fn: IndexFunc<T>): void;
  byIndex(name: string, value: string): T[];
  stop(): void;
}

export function objectKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : name ?? '';
}

type WatchOutcome = 'ended' | 'cut' | 'expired' | 'failed';

export function startInformer<T extends KubeObject>(options: InformerOptions<T>): Informer<T> {
  const { upstream, listPath } = options;
  const log = options.log ?? (() => undefined);
  const pageSize = options.pageSize ?? 500;
  const store = new IndexedStore<T>();
  const backoff = new Backoff(options.backoff);
  let resourceVersion = '';
  let stopped = false;
  let current: IncomingMessage | undefined;
  let progressHonoured = false;
  let sleeper: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  let markSynced!: () => void;
  let failSync!: (err: Error) => void;
  const syncedPromise = new Promise<void>((resolve, reject) => {
    markSynced = resolve;
    failSync = reject;
  });
  syncedPromise.catch(() => undefined); // stop() before sync must not be an unhandled rejection

  const lost = (reason: 'cut' | 'expired' | 'failed'): void => {
    if (stopped) return;
    try {
      options.onWatchLost?.(reason);
    } catch (err) {
      log(levelled('error', `informer ${listPath}: onWatchLost failed: ${String(err)}`));
    }
  };

  const emit = (type: InformerEventType, obj: T, old: T | undefined, text?: string): void => {
    // A large event parsed in slices resumes after the turns it yields: stop() may have come meanwhile,
    // and a handler run for a stopped owner may start what no one stops any more.
    if (stopped) return;
    try {
      options.onEvent?.(type, obj, old, text);
    } catch (err) {
      log(levelled('error', `informer ${listPath}: event handler failed: ${String(err)}`));
    }
  };

  const query = (extra: Record<string, string>): string => {
    const params = new URLSearchParams();
    if (options.labelSelector) params.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) params.set('fieldSelector', options.fieldSelector);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    return `${listPath}?${params.toString()}`;
  };

  async function list(): Promise<void> {
    const fresh = new Map<string, T>();
    let cont = '';
    let listRv = '';
    do {
      const res = await upstream.request<KubeList<T>>('GET', query({ limit: String(pageSize), ...(cont ? { continue: cont } : {}) }));
      if (res.status === 410 && cont) {
        // The continue token outlived the compaction window: start the list over.
        fresh.clear();
        cont = '';
        continue;
      }
      if (res.status !== 200) throw statusError(res.status, res.body);
      const itemKind = res.body.kind.replace(/List$/, '');
      for (const item of res.body.items) {
        // Items of a list carry no apiVersion/kind on the wire; consumers expect whole objects.
        item.apiVersion ??= res.body.apiVersion;
        item.kind ??= itemKind;
        if (options.keep && !options.keep(item)) continue;
        const kept = options.transform ? options.transform(item) : item;
        fresh.set(objectKey(kept), kept);
      }
      cont = res.body.metadata.continue ?? '';
      listRv = res.body.metadata.resourceVersion ?? listRv;
    } while (cont && !stopped);
    if (stopped) return;
    for (const [key, obj] of fresh) {
      const old = store.set(key, obj);
      if (!old) emit('ADDED', obj, undefined);
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) emit('MODIFIED', obj, old);
    }
    const gone: string[] = [];
    for (const key of store.items.keys()) if (!fresh.has(key)) gone.push(key);
    for (const key of gone) {
      const old = store.delete(key);
      if (old) emit('DELETED', old, old);
    }
    resourceVersion = listRv;
    markSynced();
  }

  function handleEvent(event: { type: WatchEventType; object: T | Status }, text: string): WatchOutcome | undefined {
    if (event.type === 'ERROR') {
      const status = event.object as Status;
      log(levelled('warn', `informer ${listPath}: watch error ${status.code}: ${status.message ?? ''}`));
      return status.code === 410 ? 'expired' : 'failed';
    }
    const obj = event.object as T;
    if (obj.metadata?.resourceVersion) resourceVersion = obj.metadata.resourceVersion;
    if (event.type === 'BOOKMARK') {
      options.onProgress?.();
      return undefined;
    }
    const key = objectKey(obj);
    if (event.type === 'DELETED') {
      const old = store.delete(key);
      emit('DELETED', options.transform ? options.transform(obj) : obj, old, text);
    } else if (options.keep && !options.keep(obj)) {
      // No longer wanted: gone as far as the consumer is concerned.
      const old = store.delete(key);
      if (old) emit('DELETED', obj, old, text);
    } else {
      const kept = options.transform ? options.transform(obj) : obj;
      const old = store.set(key, kept);
      emit(old ? 'MODIFIED' : 'ADDED', kept, old, text);
    }
    return undefined;
  }

  async function watch(): Promise<WatchOutcome> {
    const timeoutSeconds = options.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300);
    const headers = options.progressNotify ? { [PROGRESS_NOTIFY_HEADER]: 'true' } : undefined;
    const res = await upstream.stream(query({ watch: '1', resourceVersion, allowWatchBookmarks: 'true', timeoutSeconds: String(timeoutSeconds) }), headers);
    if (stopped) {
      res.destroy();
      return 'ended';
    }
    if (res.statusCode !== 200) {
      const body = await readAll(res);
      if (res.statusCode === 410) return 'expired';
      throw statusError(res.statusCode ?? 0, safeJson(body));
    }
    current = res;
    progressHonoured = res.headers[PROGRESS_NOTIFY_HEADER] === 'true';
    return await new Promise<WatchOutcome>((resolve) => {
      const splitter = new LineSplitter();
      let outcome: WatchOutcome = 'ended';
      let cleanEnd = false;
      // A silent upstream (a dropped connection with no FIN) would hold the watch forever.
      let stall = setTimeout(() => res.destroy(), (timeoutSeconds + 30) * 1000);
      // Events are handled one after another, in order. A small one is parsed at once; a large one
      // (a 1 MB object's event is ~1.9 MB) in slices with turns of the loop between them (ADR 0026),
      // so one tenant's big object does not hold every other request for one JSON.parse. Later lines
      // wait in `pending` meanwhile, and the stream pauses so they do not pile up.
      let pending: string[] = [];
      let parsing = false;
      let closed: (() => void) | undefined;
      const handleLine = (event: { type: WatchEventType; object: T | Status }, text: string): boolean => {
        const result = handleEvent(event, text);
        if (!result) return true;
        outcome = result;
        res.destroy();
        return false;
      };
      const fail = (err: unknown): void => {
        log(`informer ${listPath}: bad watch event: ${String(err)}`);
        outcome = 'failed';
        res.destroy();
      };
      const drain = async (): Promise<void> => {
        parsing = true;
        res.pause();
        try {
          while (pending.length > 0 && outcome === 'ended' && !stopped) {
            const line = pending.shift() ?? '';
            if (!handleLine((await parseJsonInSlices(line)) as { type: WatchEventType; object: T | Status }, line)) break;
          }
        } catch (err) {
          fail(err);
        } finally {
          parsing = false;
          pending = [];
          res.resume();
          closed?.();
        }
      };
      const lines = (batch: string[]): void => {
        if (parsing) {
          pending.push(...batch);
          return;
        }
        const queue = [...pending, ...batch];
        pending = [];
        for (let i = 0; i < queue.length; i++) {
          const line = queue[i] ?? '';
          if (isLarge(line.length)) {
            pending = queue.slice(i);
            void drain();
            return;
          }
          try {
            if (!handleLine(JSON.parse(line) as { type: WatchEventType; object: T | Status }, line)) return;
          } catch (err) {
            fail(err);
            return;
          }
        }
      };
      res.on('data', (chunk: Buffer) => {
        clearTimeout(stall);
        stall = setTimeout(() => res.destroy(), (timeoutSeconds + 30) * 1000);
        if (outcome === 'ended') lines(splitter.push(chunk));
      });
      res.on('end', () => {
        cleanEnd = true;
        // A last line without its LF is kept back by the splitter until here: only a clean end delivers it.
        if (outcome === 'ended') lines(splitter.end());
      });
      res.on('error', () => undefined); // a reset ends the stream like a close does
      res.on('close', () => {
        clearTimeout(stall);
        current = undefined;
        progressHonoured = false;
        // Events received before the close are handled before the next list or watch starts.
        const done = (): void => resolve(outcome === 'ended' && !cleanEnd ? 'cut' : outcome);
        if (parsing) closed = done;
        else done();
      });
    });
  }

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => {
    sleeper = { timer: setTimeout(resolve, ms), wake: resolve };
  });

  async function run(): Promise<void> {
    let needList = true;
    let notFoundReported = false;
    while (!stopped) {
      try {
        if (needList) {
          await list();
          needList = false;
          notFoundReported = false;
        }
        if (stopped) break;
        const started = Date.now();
        const outcome = await watch();
        if (outcome !== 'ended') lost(outcome);
        if (outcome === 'expired') {
          log(`informer ${listPath}: resourceVersion ${resourceVersion} expired, relisting`);
          needList = true;
          continue;
        }
        // A watch that ends at once, again and again, must not spin against the upstream.
        if (outcome === 'failed' || outcome === 'cut' || Date.now() - started < 1_000) await sleep(backoff.next());
        else backoff.reset();
      } catch (err) {
        if (stopped) break;
        lost('failed');
        const status = (err as { code?: number }).code;
        // Forbidden, NotFound and the like will not heal by resuming the watch: start over with a list.
        if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429) needList = true;
        // A resource the server does not serve (404) will not heal by retrying soon: say so once, at warn,
        // and keep retrying quietly (debug), so a resource that appears later is still picked up.
        if (status === 404) {
          log(levelled(notFoundReported ? 'debug' : 'warn', `informer ${listPath}: ${String(err)}${notFoundReported ? '' : ' (the server does not serve it; retrying in the background)'}`));
          notFoundReported = true;
        } else {
          // The upstream unreachable, 5xx, a refused list: the operator must see it.
          log(levelled('warn', `informer ${listPath}: ${String(err)}`));
        }
        await sleep(backoff.next());
      }
    }
  }

  void run();

  return {
    store: store.items,
    synced: () => syncedPromise,
    lastSyncResourceVersion: () => resourceVersion,
    notifiesProgress: () => progressHonoured,
    addIndex: (name, fn) => store.addIndex(name, fn),
    byIndex: (name, value) => store.byIndex(name, value),
    stop() {
      if (stopped) return;
      stopped = true;
      failSync(new Error(`informer ${listPath} stopped before it synced`));
      current?.destroy();
      if (sleeper) {
        clearTimeout(sleeper.timer);
        sleeper.wake();
      }
    },
  };
}

async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
