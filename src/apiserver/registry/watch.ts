// WATCH over the store's event history. Selector-filtered watches see an object
// enter (ADDED) and leave (DELETED) the selection, as kube-apiserver's watch cache
// does. Without a resourceVersion (or with "0") the current state comes first as
// ADDED events.
import { ApiError, expired } from '../../core/api-error.ts';
import type { KubeObject, WatchEvent } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Store, StoreEvent } from '../store/store.ts';
import type { WatchQuery } from './resource-api.ts';
import { compilePredicate } from './predicate.ts';
import { parseRevision } from './list.ts';

/**
 * A watch event straight from the store: `json` is the stored text of `object` and `revision` its
 * resourceVersion, so that a stream can write the text out without parsing it (`object` is parsed
 * only when read).
 */
export interface StoredWatchEvent extends WatchEvent {
  json?: string;
  revision?: number;
}

/** The store event as a watch event (of its own type unless told), its object still unparsed. */
function passThrough(event: StoreEvent, type: WatchEvent['type'] = event.type): StoredWatchEvent {
  const out: StoredWatchEvent = { type, object: undefined as unknown as KubeObject, revision: event.revision };
  Object.defineProperty(out, 'object', { enumerable: true, get: () => event.object });
  if (event.json !== undefined) out.json = event.json;
  return out;
}

export function watchObjects(store: Store, storageKey: string, def: ResourceDef, query: WatchQuery, onEvent: (event: StoredWatchEvent) => void): () => void {
  const predicate = compilePredicate(def, query.labelSelector, query.fieldSelector);
  const namespace = def.namespaced && query.namespace ? query.namespace : undefined;
  const visible = (obj: KubeObject | undefined): boolean =>
    obj !== undefined && (namespace === undefined || obj.metadata.namespace === namespace) && predicate.matches(obj);

  let from: number;
  const rv = query.resourceVersion;
  if (rv === undefined || rv === '' || rv === '0') {
    const snapshot = store.list(storageKey, namespace ? { namespace } : {});
    for (const obj of snapshot.items) if (visible(obj)) onEvent({ type: 'ADDED', object: obj });
    from = snapshot.revision;
    if (query.sendInitialEvents && query.allowWatchBookmarks) {
      onEvent({ type: 'BOOKMARK', object: bookmark(def, from, true) });
    }
  } else {
    from = parseRevision(rv);
  }
  const listener = (event: StoreEvent): void => {
    if (predicate.everything) {
      // No selector: an event is the watcher's when its namespace is, whatever the object holds. Neither
      // it nor the previous object is parsed here (each a full parse of a 1 MB object, per watcher, in the
      // write's own step; ADR 0026).
      if (namespace === undefined || event.namespace === namespace) onEvent(passThrough(event));
      return;
    }
    const now = event.type === 'DELETED' ? undefined : event.object;
    const before = event.previous;
    const isNow = visible(now);
    const wasBefore = visible(before);
    // Every event carries the stored object: the stream writes its text, not a serialisation per watcher.
    if (event.type === 'ADDED') {
      if (isNow) onEvent(passThrough(event, 'ADDED'));
    } else if (event.type === 'DELETED') {
      if (visible(event.previous ?? event.object) || visible(event.object)) onEvent(passThrough(event, 'DELETED'));
    } else if (isNow && wasBefore) onEvent(passThrough(event, 'MODIFIED'));
    else if (isNow) onEvent(passThrough(event, 'ADDED'));
    else if (wasBefore) onEvent(passThrough(event, 'DELETED'));
  };
  try {
    return store.watch(storageKey, from, listener);
  } catch (err) {
    if (err instanceof ApiError && err.code === 410) {
      throw expired(`too old resource version: ${from} (${store.oldestWatchableRevision()})`);
    }
    throw err;
  }
}

export function bookmark(def: ResourceDef, revision: number, initialEventsEnd = false): KubeObject {
  const metadata: KubeObject['metadata'] = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  return { apiVersion: def.group ? `${def.group}/${def.version}` : def.version, kind: def.kind, metadata };
}
