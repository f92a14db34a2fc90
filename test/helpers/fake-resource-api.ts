// A small in-memory ResourceApi for tests of in-process clients (the workload
// simulator). It keeps the semantics those clients rely on: resourceVersion
// conflicts, uid / generation / creationTimestamp, generateName, status
// subresource writes, list + watch from a resourceVersion, and cascading
// (background) deletion by ownerReferences. Not implemented: patch,
// selectors, paging. Watch delivery is async by default (as over HTTP) or
// synchronous inside the write, to catch re-entrancy bugs.
import { randomUUID } from 'node:crypto';
import { alreadyExists, ApiError, badRequest, conflict, notFound } from '../../src/core/api-error.ts';
import { BUILTIN_RESOURCES } from '../../src/core/resources/builtin-resources.ts';
import { groupVersion, resourceKey, type ResourceDef } from '../../src/core/resources/resource-def.ts';
import type { KubeList, KubeObject, WatchEvent } from '../../src/core/types.ts';
import type { DeleteOptions, ListQuery, ResourceApi, WatchQuery, WriteOptions } from '../../src/apiserver/registry/resource-api.ts';

export interface FakeOptions {
  delivery?: 'async' | 'sync';
  /** Fraction (0..1) of updates that fail with a 409 Conflict, to exercise retries. */
  conflictRate?: number;
}

interface Recorded { rkey: string; rv: number; event: WatchEvent }
interface Watcher { rkey: string; namespace?: string; onEvent: (event: WatchEvent) => void }

const clone = <T>(value: T): T => structuredClone(value);
const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

export class FakeResourceApi implements ResourceApi {
  private readonly data = new Map<string, Map<string, KubeObject>>();
  private readonly history: Recorded[] = [];
  private readonly watchers = new Set<Watcher>();
  private rv = 0;
  writes = 0;

  constructor(private readonly options: FakeOptions = {}) {}

  lookup(group: string, version: string, resource: string): ResourceDef | undefined {
    return BUILTIN_RESOURCES.find((d) => d.group === group && (version === '' || d.version === version) && d.resource === resource);
  }

  resources(): ResourceDef[] {
    return [...BUILTIN_RESOURCES];
  }

  get(def: ResourceDef, namespace: string, name: string): KubeObject {
    const obj = this.bucket(def).get(this.key(def, namespace, name));
    if (!obj) throw notFound({ group: def.group, resource: def.resource, name });
    return clone(obj);
  }

  list(def: ResourceDef, query: ListQuery): KubeList {
    const items = [...this.bucket(def).values()].filter((o) => !query.namespace || o.metadata.namespace === query.namespace).map(clone);
    return { apiVersion: groupVersion(def), kind: def.listKind, metadata: { resourceVersion: String(this.rv) }, items };
  }

  create(def: ResourceDef, namespace: string, object: KubeObject, _options?: WriteOptions): KubeObject {
    const obj = clone(object);
    let name = obj.metadata.name;
    if (!name && obj.metadata.generateName) name = obj.metadata.generateName + Array.from({ length: 5 }, () => NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)]).join('');
    if (!name) throw badRequest('name or generateName is required');
    const key = this.key(def, namespace, name);
    if (this.bucket(def).has(key)) throw alreadyExists({ group: def.group, resource: def.resource, name });
    obj.apiVersion = groupVersion(def);
    obj.kind = def.kind;
    obj.metadata = { ...obj.metadata, name, uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
    if (def.namespaced) obj.metadata.namespace = namespace;
    else delete obj.metadata.namespace;
    if (def.generation) obj.metadata.generation = 1;
    if (def.subresources?.status) delete obj.status;
    return this.store(def, key, obj, 'ADDED');
  }

  update(def: ResourceDef, namespace: string, name: string, object: KubeObject, options: WriteOptions = {}): KubeObject {
    const key = this.key(def, namespace, name);
    const current = this.bucket(def).get(key);
    if (!current) throw notFound({ group: def.group, resource: def.resource, name });
    const subject = { group: def.group, resource: def.resource, name };
    const sent = object.metadata.resourceVersion;
    if (sent && sent !== current.metadata.resourceVersion) throw conflict(subject, 'the object has been modified; please apply your changes to the latest version and try again');
    if ((this.options.conflictRate ?? 0) > Math.random()) throw conflict(subject, 'injected conflict');
    let next: KubeObject;
    if (options.subresource === 'status') {
      next = { ...clone(current), status: clone(object.status) };
    } else {
      next = clone(object);
      next.apiVersion = current.apiVersion;
      next.kind = current.kind;
      next.metadata = { ...next.metadata, uid: current.metadata.uid, creationTimestamp: current.metadata.creationTimestamp, namespace: current.metadata.namespace };
      if (def.subresources?.status) next.status = clone(current.status);
      if (def.generation) {
        const changed = JSON.stringify(next.spec) !== JSON.stringify(current.spec);
        next.metadata.generation = (current.metadata.generation ?? 1) + (changed ? 1 : 0);
      }
    }
    if (next.status === undefined) delete next.status;
    return this.store(def, key, next, 'MODIFIED');
  }

  patch(): KubeObject {
    throw new ApiError('MethodNotAllowed', 'the fake ResourceApi does not patch');
  }

  delete(def: ResourceDef, namespace: string, name: string, options: DeleteOptions = {}): KubeObject {
    const key = this.key(def, namespace, name);
    const current = this.bucket(def).get(key);
    if (!current) throw notFound({ group: def.group, resource: def.resource, name });
    if (options.preconditions?.uid && options.preconditions.uid !== current.metadata.uid) {
      throw conflict({ group: def.group, resource: def.resource, name }, `Precondition failed: UID in precondition: ${options.preconditions.uid}, UID in object meta: ${current.metadata.uid}`);
    }
    this.bucket(def).delete(key);
    const gone = { ...clone(current), metadata: { ...clone(current.metadata), resourceVersion: String(++this.rv) } };
    this.writes++;
    this.emit(resourceKey(def.group, def.resource), this.rv, { type: 'DELETED', object: gone });
    if (options.propagationPolicy !== 'Orphan') this.collectDependents(current.metadata.uid ?? '');
    return clone(gone);
  }

  deleteCollection(def: ResourceDef, query: ListQuery): KubeList {
    const list = this.list(def, query);
    for (const item of list.items) this.delete(def, item.metadata.namespace ?? '', item.metadata.name ?? '');
    return list;
  }

  watch(def: ResourceDef, query: WatchQuery, onEvent: (event: WatchEvent) => void): () => void {
    const rkey = resourceKey(def.group, def.resource);
    const watcher: Watcher = { rkey, onEvent, ...(query.namespace ? { namespace: query.namespace } : {}) };
    const backlog: WatchEvent[] = [];
    if (query.resourceVersion && query.resourceVersion !== '0') {
      const from = Number(query.resourceVersion);
      for (const r of this.history) if (r.rkey === rkey && r.rv > from && this.inScope(watcher, r.event)) backlog.push(clone(r.event));
    } else {
      for (const obj of this.bucket(def).values()) if (this.inScope(watcher, { type: 'ADDED', object: obj })) backlog.push({ type: 'ADDED', object: clone(obj) });
    }
    this.watchers.add(watcher);
    for (const event of backlog) this.deliver(watcher, event);
    return () => this.watchers.delete(watcher);
  }

  /** Ends every open watch with an ERROR event (410 Expired), as an apiserver does when history is compacted. */
  expireWatches(): void {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' };
    for (const watcher of [...this.watchers]) {
      this.watchers.delete(watcher);
      watcher.onEvent({ type: 'ERROR', object: status as unknown as KubeObject });
    }
  }

  /** Objects of a resource, for assertions. */
  items(def: ResourceDef, namespace?: string): KubeObject[] {
    return [...this.bucket(def).values()].filter((o) => namespace === undefined || o.metadata.namespace === namespace).map(clone);
  }

  private collectDependents(uid: string): void {
    if (!uid) return;
    for (const def of BUILTIN_RESOURCES) {
      for (const obj of [...this.bucket(def).values()]) {
        if (obj.metadata.ownerReferences?.some((ref) => ref.uid === uid)) this.delete(def, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
      }
    }
  }

  private store(def: ResourceDef, key: string, obj: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject {
    obj.metadata.resourceVersion = String(++this.rv);
    this.bucket(def).set(key, obj);
    this.writes++;
    this.emit(resourceKey(def.group, def.resource), this.rv, { type, object: clone(obj) });
    return clone(obj);
  }

  private emit(rkey: string, rv: number, event: WatchEvent): void {
    this.history.push({ rkey, rv, event });
    for (const watcher of this.watchers) if (watcher.rkey === rkey && this.inScope(watcher, event)) this.deliver(watcher, clone(event));
  }

  private deliver(watcher: Watcher, event: WatchEvent): void {
    if (this.options.delivery === 'sync') watcher.onEvent(event);
    else setImmediate(() => { if (this.watchers.has(watcher)) watcher.onEvent(event); });
  }

  private inScope(watcher: Watcher, event: WatchEvent): boolean {
    return !watcher.namespace || event.object.metadata.namespace === watcher.namespace;
  }

  private bucket(def: ResourceDef): Map<string, KubeObject> {
    const rkey = resourceKey(def.group, def.resource);
    let bucket = this.data.get(rkey);
    if (!bucket) this.data.set(rkey, (bucket = new Map()));
    return bucket;
  }

  private key(def: ResourceDef, namespace: string, name: string): string {
    return def.namespaced ? `${namespace}/${name}` : `/${name}`;
  }
}
