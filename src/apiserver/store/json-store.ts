// An optional extension of Store for the HTTP layer: objects as the JSON text the
// store already holds, so GET and LIST can write them out without a parse and a
// re-serialisation (LIST of 10,000 1 KiB objects becomes a string join).
// The strings are exactly JSON.stringify of the objects get()/list() return.
import type { KubeObject } from '../../core/types.ts';
import type { ListOptions, ObjectKey, Store } from './store.ts';

export interface JsonListResult {
  items: string[];
  revision: number;
  continueAfter?: string;
  remaining?: number;
}

export interface JsonStore extends Store {
  getJson(key: ObjectKey): string | undefined;
  /** Same options and paging as list(); `filter` still receives parsed objects (parsed only when a filter is given). */
  listJson(resource: string, options?: ListOptions): JsonListResult;
  /** The text an object that create() or update() returned was stored as (the answer to the write); undefined for any other object. */
  storedText?(object: KubeObject): string | undefined;
}

export function isJsonStore(store: Store): store is JsonStore {
  return typeof (store as Partial<JsonStore>).getJson === 'function' && typeof (store as Partial<JsonStore>).listJson === 'function';
}
