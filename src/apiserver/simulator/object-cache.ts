// An informer for one resource: list, then watch from the list's resourceVersion,
// keeping a local copy with secondary indexes (controller owner uid, node name) so
// a reconcile never scans every object. Our own writes are applied to the cache at
// once (watch delivery may lag), and events older than what we hold are dropped by
// resourceVersion, so a late event never resurrects a pod we just deleted.
import type { ResourceApi } from '../registry/resource-api.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { KubeObject, WatchEvent } from '../../core/types.ts';

export type ChangeHandler = (previous: KubeObject | undefined, current: KubeObject | undefined) => void;
export type IndexFn = (obj: KubeObject) => string | undefined;

const RESTART_DELAY_MS = 500;

export function objectKey(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}

/** The controller=true owner's uid, the key of the "owner" index. */
export function controllerUid(obj: KubeObject): string | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller)?.uid;
}

/** Is `incoming` strictly older than `current`? Non-numeric versions are never "older". */
function isOlder(incoming: KubeObject, current: KubeObject): boolean {
  const a = Number(incoming.metadata.resourceVersion);
  const b = Number(current.metadata.resourceVersion);
  return Number.isFinite(a) && Number.isFinite(b) && a < b;
}

export class ObjectCache {
  private readonly objects = new Map<string, KubeObject>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  /** resourceVersion of our own deletes, until the watch confirms them. */
  private readonly tombstones = new Map<string, KubeObject>();
  private stopWatch: (() => void) | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    readonly def: ResourceDef,
    private readonly api: ResourceApi,
    private readonly indexFns: Record<string, IndexFn>,
    private readonly onChange: ChangeHandler,
    private readonly log: (line: string) => void,
  ) {
    for (const name of Object.keys(indexFns)) this.indexes.set(name, new Map());
  }

  start(): void {
    const list = this.api.list(this.def, {});
    const seen = new Set<string>();
    for (const item of list.items) {
      seen.add(objectKey(item.metadata.namespace, item.metadata.name));
      this.apply(item);
    }
    // After a restart, whatever vanished while we were not watching is a delete.
    for (const [key, obj] of [...this.objects]) if (!seen.has(key)) this.drop(key, obj);
    const query = { allowWatchBookmarks: true, ...(list.metadata.resourceVersion ? { resourceVersion: list.metadata.resourceVersion } : {}) };
    this.stopWatch = this.api.watch(this.def, query, (event) => this.onEvent(event));
  }

  stop(): void {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.stopWatch?.();
    this.stopWatch = undefined;
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objects.get(objectKey(namespace, name));
  }

  all(): IterableIterator<KubeObject> {
    return this.objects.values();
  }

  size(): number {
    return this.objects.size;
  }

  byIndex(index: string, value: string): KubeObject[] {
    const keys = this.indexes.get(index)?.get(value);
    if (!keys) return [];
    const out: KubeObject[] = [];
    for (const key of keys) {
      const obj = this.objects.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  countByIndex(index: string, value: string): number {
    return this.indexes.get(index)?.get(value)?.size ?? 0;
  }

  /** Records the result of our own write (create/update/patch, or a delete that left the object terminating). */
  upsert(obj: KubeObject): void {
    this.tombstones.delete(objectKey(obj.metadata.namespace, obj.metadata.name));
    this.apply(obj);
  }

  /** Records our own delete; the result carries the deletion's resourceVersion. */
  forget(obj: KubeObject): void {
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    const current = this.objects.get(key);
    if (current) this.drop(key, current);
    this.tombstones.set(key, obj);
  }

  private onEvent(event: WatchEvent): void {
    if (this.stopped) return;
    if (event.type === 'BOOKMARK') return;
    if (event.type === 'ERROR') {
      this.log(`simulator: watch ${this.def.resource} ended (${JSON.stringify(event.object).slice(0, 200)}); relisting`);
      this.restart();
      return;
    }
    const obj = event.object;
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    const tomb = this.tombstones.get(key);
    if (tomb) {
      if (!isOlder(tomb, obj)) {
        if (event.type === 'DELETED') this.tombstones.delete(key);
        return;
      }
      this.tombstones.delete(key);
    }
    const current = this.objects.get(key);
    if (current && isOlder(obj, current)) return;
    if (event.type === 'DELETED') {
      if (current) this.drop(key, current);
    } else {
      this.apply(obj);
    }
  }

  private restart(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
    if (this.restartTimer || this.stopped) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopped) return;
      try {
        this.start();
      } catch (err) {
        this.log(`simulator: relist ${this.def.resource} failed: ${(err as Error).message}`);
        this.restart();
      }
    }, RESTART_DELAY_MS);
  }

  private apply(obj: KubeObject): void {
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    const previous = this.objects.get(key);
    if (previous === obj) return;
    if (previous) this.unindex(key, previous);
    this.objects.set(key, obj);
    this.index(key, obj);
    this.onChange(previous, obj);
  }

  private drop(key: string, obj: KubeObject): void {
    this.unindex(key, obj);
    this.objects.delete(key);
    this.onChange(obj, undefined);
  }

  private index(key: string, obj: KubeObject): void {
    for (const [name, fn] of Object.entries(this.indexFns)) {
      const value = fn(obj);
      if (value === undefined) continue;
      const index = this.indexes.get(name)!;
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, obj: KubeObject): void {
    for (const [name, fn] of Object.entries(this.indexFns)) {
      const value = fn(obj);
      if (value === undefined) continue;
      const index = this.indexes.get(name)!;
      const keys = index.get(value);
      keys?.delete(key);
      if (keys && keys.size === 0) index.delete(value);
    }
  }
}
