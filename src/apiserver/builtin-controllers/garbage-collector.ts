// Garbage collection by ownerReferences, as kube-controller-manager does it:
// - an object whose owners are all gone is deleted (Background);
// - a dangling reference next to a live owner is removed;
// - an owner being deleted with the "orphan" finalizer first frees its
//   dependents, with "foregroundDeletion" first deletes them.
// Only dependents (objects with ownerReferences) are indexed, by owner uid; an
// owner is looked up through the reference itself (kind, name, uid), so objects
// nobody depends on cost nothing here (100,000 plain ConfigMaps add no entries).
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject, OwnerReference } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Registry } from '../registry/registry.ts';
import type { ObjectKey, StoreEvent } from '../store/store.ts';
import { isJsonStore } from '../store/json-store.ts';
import { startWorkLoop } from './event-loop.ts';

interface Dependent extends ObjectKey {
  owners: OwnerReference[];
}

/** owner-gone: dependents of a deleted uid; owner-deleting: an owner with the orphan or foreground finalizer. */
type Task = { kind: 'owner-gone'; uid: string } | { kind: 'owner-deleting'; uid: string; owner: ObjectKey };

function isDeletingDependents(obj: KubeObject): boolean {
  return Boolean(obj.metadata.deletionTimestamp) && (obj.metadata.finalizers ?? []).includes('foregroundDeletion');
}

function keyId(key: ObjectKey): string {
  return `${key.resource}/${key.namespace}/${key.name}`;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

export function startGarbageCollector(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const dependentsByUid = new Map<string, Dependent>(); // dependent uid → where it is and whom it names
  const dependentUidByKey = new Map<string, string>(); // "<resource>/<namespace>/<name>" → dependent uid
  const byOwner = new Map<string, Set<string>>(); // owner uid → dependent uids

  const unlink = (uid: string): void => {
    const node = dependentsByUid.get(uid);
    if (!node) return;
    for (const owner of node.owners) byOwner.get(owner.uid)?.delete(uid);
    dependentsByUid.delete(uid);
    dependentUidByKey.delete(keyId(node));
  };
  const index = (resource: string, obj: KubeObject): void => {
    const uid = obj.metadata.uid;
    if (!uid) return;
    unlink(uid);
    const owners = obj.metadata.ownerReferences ?? [];
    if (owners.length === 0) return;
    const node = { resource, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', owners };
    dependentsByUid.set(uid, node);
    dependentUidByKey.set(keyId(node), uid);
    for (const owner of owners) {
      let set = byOwner.get(owner.uid);
      if (!set) byOwner.set(owner.uid, (set = new Set()));
      set.add(uid);
    }
  };

  const defByKind = (ref: Pick<OwnerReference, 'apiVersion' | 'kind'>): ResourceDef | undefined => {
    const group = groupOf(ref.apiVersion);
    return registry.catalog.all().find((d) => d.group === group && d.kind === ref.kind);
  };
  /** Where an owner named by a dependent in `namespace` lives (kube: same namespace, or cluster-scoped). */
  const ownerKey = (namespace: string, ref: OwnerReference): ObjectKey | undefined => {
    const def = defByKind(ref);
    if (!def) return undefined;
    return { resource: registry.catalog.storageKey(def), namespace: def.namespaced ? namespace : '', name: ref.name };
  };
  const ownerExists = (namespace: string, ref: OwnerReference): boolean => {
    const key = ownerKey(namespace, ref);
    const owner = key ? registry.store.get(key) : undefined;
    return owner?.metadata.uid === ref.uid;
  };
  const current = (key: ObjectKey, uid: string): KubeObject | undefined => {
    const obj = registry.store.get(key);
    return obj?.metadata.uid === uid ? obj : undefined;
  };
  const defOf = (key: ObjectKey) => registry.catalog.byStorageKey(key.resource);

  const rewriteOwners = (node: Dependent, obj: KubeObject, keep: (ref: OwnerReference) => boolean, options: { unblock?: boolean } = {}): void => {
    const def = defOf(node);
    if (!def) return;
    const refs = (obj.metadata.ownerReferences ?? []).filter(keep).map((ref) => (options.unblock && ref.blockOwnerDeletion ? { ...ref, blockOwnerDeletion: false } : ref));
    const { ownerReferences: _old, ...rest } = obj.metadata;
    const metadata = refs.length === 0 ? rest : { ...rest, ownerReferences: refs };
    registry.update(def, node.namespace, node.name, { ...obj, metadata }, { fieldManager: 'generic-garbage-collector' });
  };

  const deleteDependent = (node: Dependent, obj: KubeObject, policy: 'Background' | 'Foreground'): void => {
    const def = defOf(node);
    if (!def || obj.metadata.deletionTimestamp) return;
    registry.delete(def, node.namespace, node.name, { propagationPolicy: policy, preconditions: { uid: obj.metadata.uid } });
  };

  const removeFinalizer = (key: ObjectKey, obj: KubeObject, finalizer: string): void => {
    const def = defOf(key);
    if (!def) return;
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    registry.update(def, key.namespace, key.name, { ...obj, metadata: { ...obj.metadata, finalizers } }, { fieldManager: 'generic-garbage-collector' });
  };

  const children = (ownerUid: string): Array<{ node: Dependent; obj: KubeObject }> =>
    [...(byOwner.get(ownerUid) ?? [])].flatMap((uid) => {
      const node = dependentsByUid.get(uid);
      const obj = node ? current(node, uid) : undefined;
      return node && obj ? [{ node, obj }] : [];
    });

  const work = (task: Task): void => {
    if (task.kind === 'owner-gone') {
      for (const child of children(task.uid)) {
        const live = child.node.owners.filter((ref) => ownerExists(child.node.namespace, ref));
        if (live.length === 0) deleteDependent(child.node, child.obj, 'Background');
        else if (live.length < child.node.owners.length) rewriteOwners(child.node, child.obj, (ref) => live.some((l) => l.uid === ref.uid));
      }
      return;
    }
    const owner = current(task.owner, task.uid);
    if (!owner) return;
    const finalizers = owner.metadata.finalizers ?? [];
    if (finalizers.includes('orphan')) {
      for (const child of children(task.uid)) rewriteOwners(child.node, child.obj, (ref) => ref.uid !== task.uid);
      removeFinalizer(task.owner, owner, 'orphan');
    } else if (finalizers.includes('foregroundDeletion')) {
      for (const child of children(task.uid)) {
        // kube's cycle break: a dependent whose own dependent waits on its dependents closes a
        // circle of foreground deletions; its owner references stop blocking before it goes.
        const circle = children(child.obj.metadata.uid ?? '').some((grandchild) => isDeletingDependents(grandchild.obj));
        if (circle) rewriteOwners(child.node, child.obj, () => true, { unblock: true });
        else deleteDependent(child.node, child.obj, 'Foreground');
        if (circle) deleteDependent(child.node, current(child.node, child.obj.metadata.uid ?? '') ?? child.obj, 'Foreground');
      }
      // Only dependents that block their owner's deletion hold it (kube's blockingDependents).
      const blocking = children(task.uid).filter((child) => child.obj.metadata.ownerReferences?.some((ref) => ref.uid === task.uid && ref.blockOwnerDeletion === true));
      if (blocking.length === 0) removeFinalizer(task.owner, owner, 'foregroundDeletion');
    }
  };

  const loop = startWorkLoop<string>((encoded) => work(JSON.parse(encoded) as Task), (err, key) => {
    if (err instanceof ApiError && (err.reason === 'NotFound' || err.reason === 'Conflict')) {
      setTimeout(() => loop.enqueue(key), 50);
      return;
    }
    log(`garbage collector: ${key}: ${(err as Error).message}`);
  });
  const enqueue = (task: Task): void => loop.enqueue(JSON.stringify(task));

  // Start-up: find the dependents. Only objects whose stored text names ownerReferences are parsed.
  let revision = registry.store.revision();
  const store = registry.store;
  for (const resource of registry.catalog.storageKeys()) {
    if (isJsonStore(store)) {
      const list = store.listJson(resource);
      for (const json of list.items) if (json.includes('"ownerReferences"')) index(resource, JSON.parse(json) as KubeObject);
      revision = Math.max(revision, list.revision);
    } else {
      const list = store.list(resource);
      for (const obj of list.items) index(resource, obj);
      revision = Math.max(revision, list.revision);
    }
  }
  const stopWatch = registry.store.watch(undefined, revision, (event: StoreEvent) => {
    // Most writes concern no owner relation at all: an object that names no owner, is not being deleted
    // and was no dependent before changes nothing here, and is not parsed (a 1 MB ConfigMap's parse
    // was a tenth of its update, ADR 0026). The stored text is JSON.stringify's: keys appear verbatim.
    if (event.type !== 'DELETED' && event.json !== undefined && !event.json.includes('"ownerReferences"')
      && !event.json.includes('"deletionTimestamp"') && !dependentUidByKey.has(keyId(event))) return;
    const obj = event.object;
    const uid = obj.metadata.uid;
    if (!uid) return;
    const key: ObjectKey = { resource: event.resource, namespace: event.namespace, name: event.name };
    if (event.type === 'DELETED') {
      unlink(uid);
      if (byOwner.has(uid)) enqueue({ kind: 'owner-gone', uid });
      // An owner waiting (foreground) on this dependent may now go.
      for (const ref of obj.metadata.ownerReferences ?? []) {
        const owner = ownerKey(event.namespace, ref);
        if (owner) enqueue({ kind: 'owner-deleting', uid: ref.uid, owner });
      }
      return;
    }
    index(event.resource, obj);
    // A dependent that changed (deleted, or no longer blocking) may let an owner waiting on it go.
    if (event.type === 'MODIFIED') {
      for (const ref of obj.metadata.ownerReferences ?? []) {
        const owner = ownerKey(event.namespace, ref);
        if (owner && registry.store.get(owner)?.metadata.deletionTimestamp) enqueue({ kind: 'owner-deleting', uid: ref.uid, owner });
      }
    }
    const finalizers = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp && (finalizers.includes('orphan') || finalizers.includes('foregroundDeletion'))) {
      enqueue({ kind: 'owner-deleting', uid, owner: key });
    }
    // An object created with references to owners that do not exist is collected too.
    if (event.type === 'ADDED') {
      for (const ref of obj.metadata.ownerReferences ?? []) if (!ownerExists(event.namespace, ref)) enqueue({ kind: 'owner-gone', uid: ref.uid });
    }
  });
  // Owners that vanished while the server was down.
  for (const node of dependentsByUid.values()) {
    for (const ref of node.owners) if (!ownerExists(node.namespace, ref)) enqueue({ kind: 'owner-gone', uid: ref.uid });
  }
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
    idle: () => loop.idle(),
  };
}
