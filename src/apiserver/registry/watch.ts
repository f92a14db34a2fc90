// WATCH over the store's event history. Selector-filtered watches see an object
// enter (ADDED) and leave (DELETED) the selection, as kube-apiserver's watch cache
// does. Without a resourceVersion (or with "0") the current state comes first as
// ADDED events.
import { ApiError, expired } from '../../core/api-error.ts';
import type { KubeObject, WatchEvent } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Store, StoreEvent } from '../store/store.ts';
import type { WatchQuery } from './resource-api.ts';
import { compilePredicate, metadataView } from './predicate.ts';
import { labelsInText } from '../store/labels-in-text.ts';
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

/**
 * An object that left a watch's selection: its last state that matched, at the revision it left (real
 * 1.20's watch cache sends the previous object with the new resourceVersion; checked 2026-11-27).
 */
function leftSelection(event: StoreEvent): KubeObject {
  const previous = event.previous ?? event.object;
  return { ...previous, metadata: { ...previous.metadata, resourceVersion: String(event.revision) } };
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
    // What the selector reads: a selector on name, namespace and labels reads the labels from the stored
    // text, not a parse of the whole object and its previous state in the write's own step (ADR 0026).
    const seen = (json: string | undefined, parsed: () => KubeObject | undefined): KubeObject | undefined => {
      const labels = predicate.metadataOnly && json !== undefined ? labelsInText(json) : undefined;
      return labels ? metadataView(event.name, event.namespace, labels) : parsed();
    };
    const object = seen(event.json, () => event.object);
    const now = event.type === 'DELETED' ? undefined : object;
    const before = seen(event.previousJson, () => event.previous);
    const isNow = visible(now);
    const wasBefore = visible(before);
    // Every event carries the stored object: the stream writes its text, not a serialisation per watcher.
    if (event.type === 'ADDED') {
      if (isNow) onEvent(passThrough(event, 'ADDED'));
    } else if (event.type === 'DELETED') {
      if (visible(before ?? object) || visible(object)) onEvent(passThrough(event, 'DELETED'));
    } else if (isNow && wasBefore) onEvent(passThrough(event, 'MODIFIED'));
    else if (isNow) onEvent(passThrough(event, 'ADDED'));
    else if (wasBefore) onEvent({ type: 'DELETED', object: leftSelection(event), revision: event.revision });
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
