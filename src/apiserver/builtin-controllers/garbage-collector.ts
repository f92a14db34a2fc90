// Garbage collection by ownerReferences, as kube-controller-manager does it:
// - an object whose owners are all gone is deleted (Background);
// - a dangling reference next to a live owner is removed;
// - an owner being deleted with the "orphan" finalizer first frees its
//   dependents, with "foregroundDeletion" first deletes them.
// The owner graph is indexed from store events, so each deletion costs the
// number of its dependents, not a scan of the store.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject, OwnerReference } from '../../core/types.ts';
import type { Registry } from '../registry/registry.ts';
import type { StoreEvent } from '../store/store.ts';
import { startWorkLoop } from './event-loop.ts';

interface Node {
  resource: string; // storage key
  namespace: string;
  name: string;
  owners: string[]; // owner uids
}

type Task = { kind: 'owner-gone'; uid: string } | { kind: 'owner-deleting'; uid: string };

export function startGarbageCollector(registry: Registry, log: (line: string) => void): { stop(): void; idle(): Promise<void> } {
  const nodes = new Map<string, Node>(); // uid → node
  const dependents = new Map<string, Set<string>>(); // owner uid → dependent uids

  const unlink = (uid: string): void => {
    const node = nodes.get(uid);
    if (!node) return;
    for (const owner of node.owners) dependents.get(owner)?.delete(uid);
    nodes.delete(uid);
  };
  const index = (resource: string, obj: KubeObject): void => {
    const uid = obj.metadata.uid;
    if (!uid) return;
    unlink(uid);
    const owners = (obj.metadata.ownerReferences ?? []).map((ref) => ref.uid);
    nodes.set(uid, { resource, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', owners });
    for (const owner of owners) {
      let set = dependents.get(owner);
      if (!set) dependents.set(owner, (set = new Set()));
      set.add(uid);
    }
  };

  const load = (uid: string): { obj: KubeObject; node: Node } | undefined => {
    const node = nodes.get(uid);
    if (!node) return undefined;
    const obj = registry.store.get({ resource: node.resource, namespace: node.namespace, name: node.name });
    return obj && obj.metadata.uid === uid ? { obj, node } : undefined;
  };

  const defOf = (node: Node) => registry.catalog.byStorageKey(node.resource);

  const rewriteOwners = (node: Node, obj: KubeObject, keep: (ref: OwnerReference) => boolean): void => {
    const def = defOf(node);
    if (!def) return;
    const refs = (obj.metadata.ownerReferences ?? []).filter(keep);
    const { ownerReferences: _old, ...rest } = obj.metadata;
    const metadata = refs.length === 0 ? rest : { ...rest, ownerReferences: refs };
    registry.update(def, node.namespace, node.name, { ...obj, metadata }, { fieldManager: 'generic-garbage-collector' });
  };

  const deleteDependent = (node: Node, obj: KubeObject, policy: 'Background' | 'Foreground'): void => {
    const def = defOf(node);
    if (!def || obj.metadata.deletionTimestamp) return;
    registry.delete(def, node.namespace, node.name, { propagationPolicy: policy, preconditions: { uid: obj.metadata.uid } });
  };

  const work = (task: Task): void => {
    const children = [...(dependents.get(task.uid) ?? [])];
    if (task.kind === 'owner-gone') {
      for (const childUid of children) {
        const child = load(childUid);
        if (!child) continue;
        const live = child.node.owners.filter((uid) => load(uid) !== undefined);
        if (live.length === 0) deleteDependent(child.node, child.obj, 'Background');
        else rewriteOwners(child.node, child.obj, (ref) => live.includes(ref.uid));
      }
      return;
    }
    const owner = load(task.uid);
    if (!owner) return;
    const finalizers = owner.obj.metadata.finalizers ?? [];
    if (finalizers.includes('orphan')) {
      for (const childUid of children) {
        const child = load(childUid);
        if (child) rewriteOwners(child.node, child.obj, (ref) => ref.uid !== task.uid);
      }
      removeFinalizer(owner.node, owner.obj, 'orphan');
    } else if (finalizers.includes('foregroundDeletion')) {
      const remaining = children.map(load).filter((c): c is { obj: KubeObject; node: Node } => c !== undefined);
      for (const child of remaining) deleteDependent(child.node, child.obj, 'Foreground');
      if (remaining.length === 0) removeFinalizer(owner.node, owner.obj, 'foregroundDeletion');
    }
  };

  const removeFinalizer = (node: Node, obj: KubeObject, finalizer: string): void => {
    const def = defOf(node);
    if (!def) return;
    const fresh = registry.store.get({ resource: node.resource, namespace: node.namespace, name: node.name }) ?? obj;
    const finalizers = (fresh.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    registry.update(def, node.namespace, node.name, { ...fresh, metadata: { ...fresh.metadata, finalizers } }, { fieldManager: 'generic-garbage-collector' });
  };

  const loop = startWorkLoop<string>((encoded) => work(JSON.parse(encoded) as Task), (err, key) => {
    if (err instanceof ApiError && (err.reason === 'NotFound' || err.reason === 'Conflict')) {
      setTimeout(() => loop.enqueue(key), 50);
      return;
    }
    log(`garbage collector: ${key}: ${(err as Error).message}`);
  });
  const enqueue = (task: Task): void => loop.enqueue(JSON.stringify(task));

  let revision = registry.store.revision();
  for (const resource of registry.catalog.storageKeys()) {
    const list = registry.store.list(resource);
    for (const obj of list.items) index(resource, obj);
    revision = Math.max(revision, list.revision);
  }
  const stopWatch = registry.store.watch(undefined, revision, (event: StoreEvent) => {
    const uid = event.object.metadata.uid;
    if (!uid) return;
    if (event.type === 'DELETED') {
      unlink(uid);
      if (dependents.has(uid)) enqueue({ kind: 'owner-gone', uid });
      // A dependent that was waiting on this owner's foreground deletion may now let its owner go.
      for (const owner of event.object.metadata.ownerReferences ?? []) enqueue({ kind: 'owner-deleting', uid: owner.uid });
      return;
    }
    index(event.resource, event.object);
    const finalizers = event.object.metadata.finalizers ?? [];
    if (event.object.metadata.deletionTimestamp && (finalizers.includes('orphan') || finalizers.includes('foregroundDeletion'))) {
      enqueue({ kind: 'owner-deleting', uid });
    }
    // An object created with references to owners that no longer exist is collected too.
    if (event.type === 'ADDED' && (event.object.metadata.ownerReferences ?? []).some((ref) => !nodes.has(ref.uid))) {
      for (const ref of event.object.metadata.ownerReferences ?? []) if (!nodes.has(ref.uid)) enqueue({ kind: 'owner-gone', uid: ref.uid });
    }
  });
  // Owners that vanished while the server was down.
  for (const owner of dependents.keys()) if (!nodes.has(owner)) enqueue({ kind: 'owner-gone', uid: owner });
  return {
    stop() {
      stopWatch();
      loop.stop();
    },
    idle: () => loop.idle(),
  };
}
