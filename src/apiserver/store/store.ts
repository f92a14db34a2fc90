// The storage contract of the embedded apiserver: a versioned key-value map of
// whole objects plus an event history for watches, like etcd under kube-apiserver.
// The store knows nothing of Kubernetes semantics beyond resourceVersion: the
// registry layer above it does defaulting, validation, uid, generation, and so on.
//
// Objects handed to and returned by the store are treated as immutable: the store
// never mutates its inputs and callers never mutate what it returns.
import type { KubeObject } from '../../core/types.ts';

/** Identifies a stored object. `resource` is "<plural>" or "<plural>.<group>"; namespace is '' for cluster-scoped. */
export interface ObjectKey {
  resource: string;
  namespace: string;
  name: string;
}

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: StoreEventType;
  resource: string;
  namespace: string;
  name: string;
  /** The object as of this event (for DELETED: the last state, with the deletion's resourceVersion). */
  object: KubeObject;
  /** The object before this event (MODIFIED and DELETED only). Lets watchers with selectors emit synthetic ADDED/DELETED. */
  previous?: KubeObject;
  revision: number;
  /**
   * The stored JSON text of `object`, when the store keeps text: a watcher that cares only about
   * objects carrying some field can look for its key in the text and skip the parse.
   */
  json?: string;
  /** The stored JSON text of `previous`, when the store keeps text. */
  previousJson?: string;
}

export interface ListResult {
  items: KubeObject[];
  /** The store revision the snapshot was taken at. */
  revision: number;
}

export interface ListOptions {
  namespace?: string; // undefined or '' = all namespaces
  /** Start after this "<namespace>/<name>" key (exclusive); items are ordered by namespace, then name. */
  after?: string;
  limit?: number;
  /** Read the snapshot as of this revision (for consistent paging); throws Expired (410) if compacted away. */
  atRevision?: number;
  /** Optional predicate applied before the limit, so pages are full. */
  filter?: (obj: KubeObject) => boolean;
}

export interface PagedListResult extends ListResult {
  /** Key of the last returned item when more remain, else undefined. */
  continueAfter?: string;
  remaining?: number;
}

export type Precondition = { resourceVersion?: string; uid?: string };

export interface Store {
  /** The revision of the newest write (0 on an empty store). */
  revision(): number;
  get(key: ObjectKey): KubeObject | undefined;
  list(resource: string, options?: ListOptions): PagedListResult;
  /**
   * Writes a new object. Sets metadata.resourceVersion to the new revision on a copy and returns it.
   * Throws AlreadyExists (409) if the key exists.
   */
  create(key: ObjectKey, object: KubeObject): KubeObject;
  /**
   * Replaces an existing object. If `precondition.resourceVersion` is set and differs from the stored one,
   * throws Conflict (409). Throws NotFound if absent. Returns the stored copy with its new resourceVersion.
   */
  update(key: ObjectKey, object: KubeObject, precondition?: Precondition): KubeObject;
  /** Removes an object; returns its last state stamped with the deletion revision. Same preconditions as update. */
  delete(key: ObjectKey, precondition?: Precondition): KubeObject;
  /**
   * Delivers every event with revision > fromRevision for `resource` (all resources when undefined),
   * first the retained history, then live events, in revision order. Throws an Expired ApiError (410)
   * if fromRevision is older than the retained history. Returns a function that stops delivery.
   */
  watch(resource: string | undefined, fromRevision: number, listener: (event: StoreEvent) => void): () => void;
  /** The oldest revision a watch can still resume from. */
  oldestWatchableRevision(): number;
  /**
   * Forgets the event history: watches and continue tokens resume only from the current revision on,
   * as on a kube-apiserver whose watch cache was just (re)started. Live watches are not affected.
   */
  startWatchWindow(): void;
  /** Flushes and closes the backing file, if any. */
  close(): Promise<void>;
}
