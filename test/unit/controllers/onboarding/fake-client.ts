// A map-backed ObjectClient: objects by path, resourceVersions that move on
// every write and 409 on a stale one, label-selector lists (kube's selector syntax).
import { matchesLabels, parseLabelSelector } from '../../../../src/core/selectors/index.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { ObjectClient } from '../../../../src/kube/object-client.ts';

export interface FakeClient extends ObjectClient {
  objects: Map<string, KubeObject>;
  writes: string[];
  documents: Map<string, unknown>;
}

export function fakeClient(): FakeClient {
  const objects = new Map<string, KubeObject>();
  const documents = new Map<string, unknown>();
  const writes: string[] = [];
  let rv = 1;
  const store = (path: string, obj: KubeObject): KubeObject => {
    const copy = structuredClone(obj);
    copy.metadata.resourceVersion = String(++rv);
    objects.set(path, copy);
    return structuredClone(copy);
  };
  // PUT .../status writes into the object itself.
  const objectPath = (path: string): string => path.replace(/\/status$/, '');
  return {
    objects,
    documents,
    writes,
    get: async <T extends KubeObject>(path: string) => structuredClone(objects.get(path)) as T | undefined,
    async create<T extends KubeObject>(collection: string, obj: T) {
      const path = `${collection}/${obj.metadata.name ?? ''}`;
      if (objects.has(path)) throw new ApiError('AlreadyExists', `${path} exists`);
      writes.push(`create ${path}`);
      return store(path, obj) as T;
    },
    async update<T extends KubeObject>(path: string, obj: T) {
      const target = objectPath(path);
      const current = objects.get(target);
      if (!current) throw new ApiError('NotFound', `${target} not found`);
      if (obj.metadata.resourceVersion !== current.metadata.resourceVersion) throw new ApiError('Conflict', `${target}: stale`);
      writes.push(`update ${path}`);
      return store(target, obj) as T;
    },
    async remove(path) {
      if (objects.delete(path)) writes.push(`delete ${path}`);
      // As an apiserver does, a deleted namespace takes what is in it.
      const ns = /^\/api\/v1\/namespaces\/([^/]+)$/.exec(path)?.[1];
      if (ns) for (const key of [...objects.keys()]) if (key.startsWith(`/api/v1/namespaces/${ns}/`)) objects.delete(key);
    },
    async list<T extends KubeObject>(collection: string, selector?: string) {
      const reqs = selector ? parseLabelSelector(selector) : [];
      // A namespaced resource's collection across namespaces (/api/v1/resourcequotas) holds every namespace's.
      const across = /^\/api\/v1\/([a-z]+)$/.exec(collection)?.[1];
      const inNamespace = (p: string): boolean => across !== undefined && across !== 'namespaces' && new RegExp(`^/api/v1/namespaces/[^/]+/${across}/[^/]+$`).test(p);
      return [...objects.entries()]
        .filter(([p]) => (p.startsWith(`${collection}/`) && !p.slice(collection.length + 1).includes('/')) || inNamespace(p))
        .map(([, o]) => structuredClone(o) as T)
        .filter((o) => matchesLabels(reqs, o.metadata.labels));
    },
    async read(path) {
      if (!documents.has(path)) throw new ApiError('NotFound', path);
      return documents.get(path);
    },
  };
}
