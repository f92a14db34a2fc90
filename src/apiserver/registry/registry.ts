// The registry: Kubernetes object semantics over the store. Every write goes
// through the same steps, in this order (the order is kube-apiserver's):
//   decode checks → admission (namespace lifecycle) → server-owned metadata →
//   defaulting → unknown fields → validation → field managers → store.
import { ApiError, conflict, methodNotAllowed, notFound } from '../../core/api-error.ts';
import type { KubeList, KubeObject } from '../../core/types.ts';
import { groupVersion, type ResourceDef } from '../../core/resources/resource-def.ts';
import type { ObjectKey, Store } from '../store/store.ts';
import { isEventsV1, type ResourceCatalog } from './catalog.ts';
import { toCoreEvent, toEventsV1 } from '../../core/resources/event-versions.ts';
import type { DeleteOptions, ListQuery, PatchType, ResourceApi, WatchQuery, WriteOptions } from './resource-api.ts';
import type { Strategy } from './strategy.ts';
import { prepareCreateMeta, prepareUpdateMeta, specChanged } from './object-meta.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import {
  checkBodyShape, checkEventsV1Create, checkNameMatches, checkNamespaceMatches, checkNamespaceOpen, checkTypeMeta, handleUnknownFields, throwIfInvalid,
} from './write-checks.ts';
import { dropPaths } from './drop-paths.ts';
import { FIELD_IMMUTABLE, invalidValue } from '../validation/field-errors.ts';
import { listObjects, listObjectsJson } from './list.ts';
import { isJsonStore } from '../store/json-store.ts';
import { watchObjects, type StoredWatchEvent } from './watch.ts';
import { applyPatchBody, recordUpdateManager } from './patching.ts';
import { kindHooks } from './kind-hooks.ts';
import { admitAgainstQuotas } from './resource-quota.ts';
import { QuotaIndex } from './quota-index.ts';
import { admitPodSecurity } from './pod-security-admission.ts';
import { admitPodPriority, admitPriorityClass, type PriorityAdmissionInput } from './priority-admission.ts';
import { CarriedFieldsCache } from './carried-fields-cache.ts';
import type { TrackedUpdate } from '../../core/patch/track-update.ts';
import { commitOrMark, runNow, writeInTurns, type WriteSteps } from './write-turns.ts';

export interface RegistryOptions {
  store: Store;
  catalog: ResourceCatalog;
  strategy: Strategy;
  now?: () => Date;
}

/** Objects that kube-apiserver lets a PUT create when absent. */
const CREATE_ON_UPDATE = new Set(['leases', 'endpoints', 'events']);

/** Server-side apply computes managedFields itself; other writes record an Update entry. */
type InternalWrite = WriteOptions & { skipManagedFields?: boolean };

export interface RemoveResult {
  object: KubeObject;
  /** False when the object stays, marked for deletion (finalizers, namespace termination). */
  deleted: boolean;
}

export class Registry implements ResourceApi {
  readonly store: Store;
  readonly catalog: ResourceCatalog;
  private readonly strategy: Strategy;
  private readonly now: () => Date;
  private readonly carried = new CarriedFieldsCache();
  private quotas: QuotaIndex | undefined;

  constructor(options: RegistryOptions) {
    this.store = options.store;
    this.catalog = options.catalog;
    this.strategy = options.strategy;
    this.now = options.now ?? (() => new Date());
  }

  lookup(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.catalog.lookup(group, version, resource);
  }

  resources(): ResourceDef[] {
    return this.catalog.all();
  }

  key(def: ResourceDef, namespace: string, name: string): ObjectKey {
    return { resource: this.catalog.storageKey(def), namespace: def.namespaced ? namespace : '', name };
  }

  /** The stored object as the client asked for it (custom resources may be stored at another version). */
  present(def: ResourceDef, obj: KubeObject): KubeObject {
    if (isEventsV1(def)) return toEventsV1(obj, def.version);
    const apiVersion = groupVersion(def);
    const read = def.custom && this.strategy.defaultOnRead ? this.strategy.defaultOnRead(def, obj) : obj;
    if (read.apiVersion === apiVersion && read.kind === def.kind) return read;
    return { ...read, apiVersion, kind: def.kind };
  }

  get(def: ResourceDef, namespace: string, name: string): KubeObject {
    const found = this.store.get(this.key(def, namespace, name));
    if (!found) throw notFound({ group: def.group, resource: def.resource, name });
    return this.present(def, found);
  }

  /**
   * GET as the stored JSON text, when the stored form is exactly what the client gets (built-in kinds,
   * stored at their only version); undefined when the caller must go through get().
   */
  getJson(def: ResourceDef, namespace: string, name: string): string | undefined {
    if (def.custom || isEventsV1(def) || !isJsonStore(this.store)) return undefined;
    const text = this.store.getJson(this.key(def, namespace, name));
    if (text === undefined) throw notFound({ group: def.group, resource: def.resource, name });
    return text;
  }

  /**
   * A write's answer as the text the store wrote, when `answer` is the stored object itself (built-in
   * kinds): no second serialisation of a 1 MB object (~25 ms) in the answer's step. Undefined otherwise.
   */
  storedText(def: ResourceDef, answer: KubeObject): string | undefined {
    if (def.custom || isEventsV1(def) || !isJsonStore(this.store)) return undefined;
    return this.store.storedText?.(answer);
  }

  /** LIST as JSON text without re-serialising items; undefined when the caller must go through list(). */
  listJson(def: ResourceDef, query: ListQuery): string | undefined {
    if (def.custom || isEventsV1(def) || !isJsonStore(this.store)) return undefined;
    return listObjectsJson(this.store, this.catalog.storageKey(def), def, query);
  }

  list(def: ResourceDef, query: ListQuery): KubeList {
    const list = listObjects(this.store, this.catalog.storageKey(def), def, query);
    return { ...list, items: list.items.map((item) => this.present(def, item)) };
  }

  watch(def: ResourceDef, query: WatchQuery, onEvent: (event: StoredWatchEvent) => void): () => void {
    // Built-in kinds are stored as served (see getJson): their events go out as stored, text included.
    const asStored = !def.custom && !isEventsV1(def);
    return watchObjects(this.store, this.catalog.storageKey(def), def, query, (event) => {
      if (asStored) {
        onEvent(event);
        return;
      }
      onEvent(event.type === 'BOOKMARK' || event.type === 'ERROR' ? event : { type: event.type, object: this.present(def, event.object) });
    });
  }

  create(def: ResourceDef, namespace: string, input: KubeObject, options: WriteOptions = {}): KubeObject {
    return runNow(this.insert(def, namespace, input, options));
  }

  update(def: ResourceDef, namespace: string, name: string, input: KubeObject, options: WriteOptions = {}): KubeObject {
    return runNow(this.updateSteps(def, namespace, name, input, options));
  }

  patch(def: ResourceDef, namespace: string, name: string, type: PatchType, body: unknown, options: WriteOptions = {}): KubeObject {
    return runNow(this.patchSteps(def, namespace, name, type, body, options));
  }

  /**
   * The same writes with a turn of the event loop (`between`) between their phases, for large
   * bodies (write-turns.ts): the commit re-checks the resourceVersion read at the start.
   */
  createInTurns(def: ResourceDef, namespace: string, input: KubeObject, options: WriteOptions, between: () => Promise<void>): Promise<KubeObject> {
    return writeInTurns(() => this.insert(def, namespace, input, options), options, between);
  }

  updateInTurns(def: ResourceDef, namespace: string, name: string, input: KubeObject, options: WriteOptions, between: () => Promise<void>): Promise<KubeObject> {
    return writeInTurns(() => this.updateSteps(def, namespace, name, input, options), options, between);
  }

  patchInTurns(def: ResourceDef, namespace: string, name: string, patch: { type: PatchType; body: unknown }, options: WriteOptions, between: () => Promise<void>): Promise<KubeObject> {
    return writeInTurns(() => this.patchSteps(def, namespace, name, patch.type, patch.body, options), options, between);
  }

  /** The namespaces' ResourceQuotas, kept from the store's watch (made on first use), for admission and the quota controller. */
  quotaIndex(): QuotaIndex {
    this.quotas ??= new QuotaIndex(this.store);
    return this.quotas;
  }

  /** The core Event definition behind events.k8s.io Events (they are written as core Events). */
  private coreEvents(): ResourceDef {
    const core = this.catalog.lookup('', 'v1', 'events');
    if (!core) throw new Error('core events are not served');
    return core;
  }

  private *insert(def: ResourceDef, namespace: string, input: KubeObject, options: InternalWrite): WriteSteps<KubeObject> {
    if (isEventsV1(def)) {
      checkTypeMeta(def, input, this.catalog);
      checkEventsV1Create(this.coreEvents(), input, namespace);
      return this.present(def, yield* this.insert(this.coreEvents(), namespace, toCoreEvent(input), options));
    }
    this.requireVerb(def, 'create');
    checkBodyShape(input);
    checkTypeMeta(def, input, this.catalog);
    checkNamespaceMatches(def, input, namespace);
    checkNamespaceOpen(this.store, def, namespace, input.metadata.name);
    const now = this.now();
    let obj: KubeObject = { ...input, apiVersion: groupVersion(def), kind: def.kind, metadata: prepareCreateMeta(def, input.metadata, namespace, now) };
    if (!obj.metadata.name) {
      throwIfInvalid(def, obj, [{ type: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
    }
    obj = kindHooks(def).prepareForCreate(obj, { now, store: this.store });
    // Mutating admission (kube's runs after decoding and defaulting, before validation; nothing it reads is defaulted): Priority.
    const priority = this.priorityInput(def, obj, undefined, options, input.metadata.name || input.metadata.generateName || '');
    obj = admitPodPriority(priority);
    obj = yield* this.normalizeAndValidate(def, obj, undefined, options);
    // Validating admission, after the object is known to be valid (kube's order): Priority, PodSecurity, ResourceQuota.
    admitPriorityClass({ ...priority, obj });
    admitPodSecurity({ store: this.store, def, obj, old: undefined, namespace, subresource: options.subresource, warnings: options.warnings });
    let tracked: TrackedUpdate<KubeObject> | undefined;
    if (!options.skipManagedFields) obj = (tracked = recordUpdateManager({ previous: undefined, next: obj, options, now, typeName: this.strategy.typeName(def) })).object;
    const admitQuota = (): void => admitAgainstQuotas(this.store, (d) => this.catalog.storageKey(d), def, obj, namespace, this.quotaIndex());
    if (options.dryRun) {
      admitQuota();
      return this.present(def, obj);
    }
    yield;
    // ResourceQuota admission in the commit's own turn: a write taken in turns lets other creates commit
    // between its phases, and each must count (kube keeps this exact with a compare-and-swap on the quota).
    admitQuota();
    const key = this.key(def, namespace, obj.metadata.name ?? '');
    try {
      const stored = this.store.create(key, obj);
      this.carried.put(key, stored.metadata.resourceVersion, tracked?.members ?? 0, tracked?.carry);
      return this.present(def, stored);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'AlreadyExists' && input.metadata.generateName && !input.metadata.name) {
        // kube retries generateName collisions internally; one retry is plenty at our name space size.
        return yield* this.insert(def, namespace, input, options);
      }
      throw err;
    }
  }

  private *updateSteps(def: ResourceDef, namespace: string, name: string, input: KubeObject, options: WriteOptions): WriteSteps<KubeObject> {
    if (isEventsV1(def)) {
      checkTypeMeta(def, input, this.catalog);
      checkNameMatches(input, name);
      const old = this.store.get(this.key(def, namespace, name));
      // A PUT that creates is a create, with a create's checks (the name is the URL's).
      if (!old) return yield* this.insert(def, namespace, { ...input, metadata: { ...input.metadata, name } }, options);
      return this.present(def, yield* this.updateSteps(this.coreEvents(), namespace, name, toCoreEvent(input), options));
    }
    this.requireVerb(def, 'update');
    checkBodyShape(input);
    checkTypeMeta(def, input, this.catalog);
    checkNamespaceMatches(def, input, namespace);
    checkNameMatches(input, name);
    const key = this.key(def, namespace, name);
    const old = this.store.get(key);
    if (!old) {
      if (CREATE_ON_UPDATE.has(def.resource) && !options.subresource) {
        return yield* this.insert(def, namespace, { ...input, metadata: { ...input.metadata, name } }, options);
      }
      throw notFound({ group: def.group, resource: def.resource, name });
    }
    // A PUT's uid is a precondition (kube's defaultUpdatedObjectInfo): real 1.20 answers 409, not 422.
    const uid = input.metadata.uid;
    if (uid !== undefined && uid !== '' && uid !== old.metadata.uid) {
      // Worded as real 1.20's etcd3 store words it, key included (kube's default key; a few kinds use another prefix there).
      const storageKey = `/registry/${def.resource}/${namespace ? `${namespace}/` : ''}${name}`;
      throw conflict({ group: def.group, resource: def.resource, name }, `StorageError: invalid object, Code: 4, Key: ${storageKey}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
    }
    const wanted = input.metadata.resourceVersion;
    if (wanted !== undefined && wanted !== '' && wanted !== old.metadata.resourceVersion) {
      throw conflict({ group: def.group, resource: def.resource, name }, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    return yield* this.replace(def, old, { ...input, metadata: { ...input.metadata, name } }, options);
  }

  private *patchSteps(def: ResourceDef, namespace: string, name: string, type: PatchType, body: unknown, options: WriteOptions): WriteSteps<KubeObject> {
    this.requireVerb(def, 'patch');
    const key = this.key(def, namespace, name);
    const old = this.store.get(key);
    const typeName = this.strategy.typeName(def);
    if (type === 'apply') {
      const named = { metadata: { name } } as KubeObject;
      throwIfInvalid(def, named, this.strategy.validateApplied?.(def, body) ?? []);
      yield;
    }
    if (!old) {
      if (type !== 'apply' || options.subresource) throw notFound({ group: def.group, resource: def.resource, name });
      const created = yield* applyPatchBody({ type, live: undefined, body, typeName, options, now: this.now(), def, name, namespace });
      yield;
      return yield* this.insert(def, namespace, created, { ...options, skipManagedFields: true });
    }
    const patched = yield* applyPatchBody({ type, live: this.present(def, old), body, typeName, options, now: this.now(), def, name, namespace });
    yield;
    checkNameMatches(patched, name);
    const wanted = patched.metadata.resourceVersion;
    if (wanted !== undefined && wanted !== '' && wanted !== old.metadata.resourceVersion) {
      throw conflict({ group: def.group, resource: def.resource, name }, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    if (isEventsV1(def)) return this.present(def, yield* this.replace(this.coreEvents(), old, toCoreEvent(patched), { ...options, skipManagedFields: type === 'apply' }));
    return yield* this.replace(def, old, patched, { ...options, skipManagedFields: type === 'apply' });
  }

  delete(def: ResourceDef, namespace: string, name: string, options: DeleteOptions = {}): KubeObject {
    return this.remove(def, namespace, name, options).object;
  }

  remove(def: ResourceDef, namespace: string, name: string, options: DeleteOptions = {}): RemoveResult {
    this.requireVerb(def, 'delete');
    const key = this.key(def, namespace, name);
    const old = this.store.get(key);
    if (!old) throw notFound({ group: def.group, resource: def.resource, name });
    // kube checks delete preconditions early (rest.BeforeDelete), naming the Kind, not the resource.
    const subject = { group: def.group, resource: def.kind, name };
    const pre = options.preconditions ?? {};
    if (pre.uid && pre.uid !== old.metadata.uid) {
      throw conflict(subject, `the UID in the precondition (${pre.uid}) does not match the UID in record (${old.metadata.uid ?? ''}). The object might have been deleted and then recreated`);
    }
    if (pre.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(subject, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${old.metadata.resourceVersion ?? ''}). The object might have been modified`);
    }
    const finalizers = [...(old.metadata.finalizers ?? [])];
    if (options.propagationPolicy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
    if (options.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
    const marked = kindHooks(def).prepareForDelete(old, { now: this.now(), finalizers });
    if (marked) {
      if (options.dryRun) return { object: this.present(def, marked), deleted: false };
      if (old.metadata.deletionTimestamp && jsonEqual(marked.metadata.finalizers ?? null, old.metadata.finalizers ?? null)) {
        return { object: this.present(def, old), deleted: false };
      }
      return { object: this.present(def, this.store.update(key, marked, { resourceVersion: old.metadata.resourceVersion })), deleted: false };
    }
    if (options.dryRun) return { object: this.present(def, old), deleted: true };
    return { object: this.present(def, this.store.delete(key, { resourceVersion: old.metadata.resourceVersion })), deleted: true };
  }

  deleteCollection(def: ResourceDef, query: ListQuery, options: DeleteOptions = {}): KubeList {
    this.requireVerb(def, 'deletecollection');
    const list = this.list(def, { ...query, limit: undefined, continue: undefined });
    const items: KubeObject[] = [];
    for (const item of list.items) {
      try {
        items.push(this.delete(def, item.metadata.namespace ?? '', item.metadata.name ?? '', options));
      } catch (err) {
        if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err;
      }
    }
    return { ...list, items };
  }

  /**
   * The namespaces/finalize subresource: only spec.finalizers change. A terminating
   * namespace with no finalizers left is removed.
   */
  finalizeNamespace(next: KubeObject): KubeObject {
    const def = this.catalog.lookup('', 'v1', 'namespaces');
    if (!def) throw notFound({ resource: 'namespaces', name: next.metadata.name });
    const key = this.key(def, '', next.metadata.name ?? '');
    const old = this.store.get(key);
    if (!old) throw notFound({ resource: 'namespaces', name: next.metadata.name });
    const obj = { ...old, spec: { ...((old.spec as object | undefined) ?? {}), finalizers: (next.spec as { finalizers?: string[] }).finalizers ?? [] } };
    const done = old.metadata.deletionTimestamp && (obj.spec.finalizers.length === 0) && (old.metadata.finalizers ?? []).length === 0;
    if (done) return this.present(def, this.store.delete(key, { resourceVersion: old.metadata.resourceVersion }));
    return this.present(def, this.store.update(key, obj, { resourceVersion: old.metadata.resourceVersion }));
  }

  /** The shared second half of update and patch: old exists, input is the desired object. */
  private *replace(def: ResourceDef, old: KubeObject, input: KubeObject, options: InternalWrite): WriteSteps<KubeObject> {
    const now = this.now();
    const hooks = kindHooks(def);
    let obj: KubeObject;
    if (options.subresource === 'status') {
      // Status writes change status (and labels/annotations are ignored), never spec.
      obj = { ...old, status: input.status };
      if (input.status === undefined) delete obj.status;
    } else {
      // kube's ValidateObjectMetaUpdate (a patch's, an apply's uid; a PUT's was a precondition): an empty one takes the stored one.
      // Real 1.20 lists the cause twice (its common-fields check and the kind's own both run it); the message says it once.
      const uid = input.metadata.uid;
      if (uid !== undefined && uid !== '' && uid !== old.metadata.uid) {
        const cause = invalidValue('metadata.uid', uid, FIELD_IMMUTABLE);
        throwIfInvalid(def, old, [cause, { ...cause }]);
      }
      obj = { ...input, apiVersion: old.apiVersion, kind: old.kind, metadata: prepareUpdateMeta(input.metadata, old.metadata) };
      if (def.subresources?.status && !hooks.statusWritableOnMain) {
        if (old.status === undefined) delete obj.status;
        else obj.status = old.status;
      }
    }
    obj = { ...obj, apiVersion: groupVersion(def), kind: def.kind };
    if (old.metadata.deletionTimestamp) {
      const added = (obj.metadata.finalizers ?? []).filter((f) => !(old.metadata.finalizers ?? []).includes(f));
      if (added.length > 0) {
        throwIfInvalid(def, obj, [{ type: 'FieldValueForbidden', field: 'metadata.finalizers', message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}` }]);
      }
    }
    obj = hooks.prepareForUpdate(obj, old, { now, store: this.store });
    const priority = this.priorityInput(def, obj, old, options, old.metadata.name ?? '');
    obj = admitPodPriority(priority);
    obj = yield* this.normalizeAndValidate(def, obj, old, options);
    admitPriorityClass({ ...priority, obj });
    admitPodSecurity({ store: this.store, def, obj, old, namespace: old.metadata.namespace ?? '', subresource: options.subresource, warnings: options.warnings });
    if (obj.metadata.generation !== undefined && specChanged(obj, old)) obj.metadata = { ...obj.metadata, generation: (old.metadata.generation ?? 0) + 1 };
    const key = this.key(def, old.metadata.namespace ?? '', old.metadata.name ?? '');
    let tracked: TrackedUpdate<KubeObject> | undefined;
    if (!options.skipManagedFields) {
      const carried = this.carried.get(key, old.metadata.resourceVersion);
      obj = (tracked = recordUpdateManager({ previous: old, next: obj, options, now, typeName: this.strategy.typeName(def), carried })).object;
      yield;
    }
    const unchanged = jsonEqual(withoutVolatile(obj), withoutVolatile(old));
    if (unchanged) return this.present(def, old);
    // A namespace also waits for its spec.finalizers (the namespace controller's own).
    const specFinalizers = def.group === '' && def.resource === 'namespaces' ? ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) : [];
    const finished = obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).length === 0 && specFinalizers.length === 0;
    if (options.dryRun) return this.present(def, obj);
    yield;
    // The commit is a compare-and-swap on the resourceVersion read at the start: a write committed
    // between this write's turns makes it a Conflict (write-turns.ts computes it again), never a lost update.
    if (finished) return this.present(def, commitOrMark(() => this.store.delete(key, { resourceVersion: old.metadata.resourceVersion })));
    const stored = commitOrMark(() => this.store.update(key, obj, { resourceVersion: old.metadata.resourceVersion }));
    this.carried.put(key, stored.metadata.resourceVersion, tracked?.members ?? 0, tracked?.carry);
    return this.present(def, stored);
  }

  private *normalizeAndValidate(def: ResourceDef, input: KubeObject, old: KubeObject | undefined, options: WriteOptions): WriteSteps<KubeObject> {
    const unknown = this.strategy.unknownFields(def, input);
    handleUnknownFields(def, unknown, options.fieldValidation, options.warnings);
    yield;
    const obj = this.strategy.normalize(def, dropPaths(input, unknown));
    yield;
    const causes = old ? this.strategy.validateUpdate(def, obj, old) : this.strategy.validateCreate(def, obj);
    throwIfInvalid(def, obj, causes);
    return obj;
  }

  /** What Priority admission reads: the stored PriorityClasses, listed only when a pod or a class is written. */
  private priorityInput(def: ResourceDef, obj: KubeObject, old: KubeObject | undefined, options: WriteOptions, requestName: string): PriorityAdmissionInput {
    const classes = (): KubeObject[] => this.store.list(this.catalog.storageKey({ group: 'scheduling.k8s.io', resource: 'priorityclasses' })).items;
    return { def, obj, old, subresource: options.subresource, classes, requestName };
  }

  private requireVerb(def: ResourceDef, verb: string): void {
    if (!def.verbs.includes(verb)) throw methodNotAllowed();
  }
}

/** resourceVersion and managedFields timestamps do not make a write a change; a new field owner does. */
function withoutVolatile(obj: KubeObject): KubeObject {
  const { resourceVersion: _rv, managedFields, ...meta } = obj.metadata;
  const owners = managedFields?.map(({ time: _t, ...entry }) => entry);
  return { ...obj, metadata: owners ? { ...meta, managedFields: owners } : meta };
}

