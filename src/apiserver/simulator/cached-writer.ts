// Every write of the simulator goes through here, so the informer caches see our
// own results at once (no duplicate pods while the watch catches up), and a 409
// refreshes the cached object before the reconcile is retried from the queue.
import { ApiError } from '../../core/api-error.ts';
import type { ResourceApi, DeleteOptions } from '../registry/resource-api.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ObjectCache } from './object-cache.ts';

export class CachedWriter {
  constructor(
    private readonly api: ResourceApi,
    private readonly cacheOf: (def: ResourceDef) => ObjectCache | undefined,
  ) {}

  create(def: ResourceDef, obj: KubeObject, fieldManager: string): KubeObject {
    const created = this.api.create(def, obj.metadata.namespace ?? '', obj, { fieldManager });
    this.cacheOf(def)?.upsert(created);
    return created;
  }

  update(def: ResourceDef, obj: KubeObject, fieldManager: string): KubeObject {
    return this.guard(def, obj, () => this.api.update(def, obj.metadata.namespace ?? '', obj.metadata.name ?? '', obj, { fieldManager }));
  }

  updateStatus(def: ResourceDef, obj: KubeObject, fieldManager: string): KubeObject {
    return this.guard(def, obj, () => this.api.update(def, obj.metadata.namespace ?? '', obj.metadata.name ?? '', obj, { fieldManager, subresource: 'status' }));
  }

  delete(def: ResourceDef, obj: KubeObject, options: DeleteOptions = {}): void {
    const cache = this.cacheOf(def);
    try {
      const uid = obj.metadata.uid;
      const result = this.api.delete(def, obj.metadata.namespace ?? '', obj.metadata.name ?? '', { ...options, ...(uid ? { preconditions: { uid } } : {}) });
      // Still present (finalizers, graceful pod deletion): keep it so reconcilers see it
      // terminating; if it was in fact removed, the DELETED event drops it.
      if (result.metadata.deletionTimestamp) cache?.upsert(result);
      else cache?.forget(result);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') {
        cache?.forget(obj);
        return;
      }
      throw err;
    }
  }

  private guard(def: ResourceDef, obj: KubeObject, write: () => KubeObject): KubeObject {
    const cache = this.cacheOf(def);
    try {
      const result = write();
      cache?.upsert(result);
      return result;
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'Conflict') this.refresh(def, obj, cache);
      if (err instanceof ApiError && err.reason === 'NotFound') cache?.forget(obj);
      throw err;
    }
  }

  private refresh(def: ResourceDef, obj: KubeObject, cache: ObjectCache | undefined): void {
    try {
      cache?.upsert(this.api.get(def, obj.metadata.namespace ?? '', obj.metadata.name ?? ''));
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') cache?.forget(obj);
      else throw err;
    }
  }
}
