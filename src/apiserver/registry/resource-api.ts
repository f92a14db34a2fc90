// The in-process API of the embedded apiserver: Kubernetes semantics (defaulting,
// validation, uid, generation, finalizers, deletion, patches, selectors) over the
// store. The HTTP handlers are a thin adapter over this interface, and in-process
// clients (the workload simulator, tests) use it directly.
import type { KubeList, KubeObject, WatchEvent } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface WriteOptions {
  /** dryRun=All: validate and return the result without storing it. */
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
  /** Writes to a subresource: 'status' or 'scale' (others are served elsewhere). */
  subresource?: string;
  /** Server-side apply: take ownership of conflicting fields. */
  force?: boolean;
  /** Warnings produced while handling the write (unknown fields under Warn), appended by the callee. */
  warnings?: string[];
}

export interface ListQuery {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

export interface WatchQuery extends ListQuery {
  allowWatchBookmarks?: boolean;
  /** Send the initial state as ADDED events (resourceVersion unset or "0"), as kube-apiserver does. */
  sendInitialEvents?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  dryRun?: boolean;
}

export interface ResourceApi {
  /** The served resource for group/version/resource (version may be '' for "preferred"), or undefined. */
  lookup(group: string, version: string, resource: string): ResourceDef | undefined;
  /** Every served resource, CRDs included, in discovery order. */
  resources(): ResourceDef[];

  get(def: ResourceDef, namespace: string, name: string): KubeObject;
  list(def: ResourceDef, query: ListQuery): KubeList;
  create(def: ResourceDef, namespace: string, object: KubeObject, options?: WriteOptions): KubeObject;
  update(def: ResourceDef, namespace: string, name: string, object: KubeObject, options?: WriteOptions): KubeObject;
  patch(def: ResourceDef, namespace: string, name: string, type: PatchType, body: unknown, options?: WriteOptions): KubeObject;
  /** Returns the object as it is after the call: deleted, or still present with deletionTimestamp set. */
  delete(def: ResourceDef, namespace: string, name: string, options?: DeleteOptions): KubeObject;
  deleteCollection(def: ResourceDef, query: ListQuery, options?: DeleteOptions): KubeList;
  /**
   * Streams events from the given resourceVersion (or the current state as ADDED events when none is given).
   * Throws an Expired ApiError when the version is too old. Returns a stop function.
   */
  watch(def: ResourceDef, query: WatchQuery, onEvent: (event: WatchEvent) => void): () => void;
}
