// The onboarding controller's I/O, as plain functions over API paths: the
// upstream implementation is below, and unit tests pass a map-backed fake.
import type { KubeList, KubeObject } from '../core/types.ts';
import type { Upstream } from './upstream.ts';
import { statusError } from './status-error.ts';

export interface ObjectClient {
  /** The object, or undefined when it does not exist. */
  get<T extends KubeObject = KubeObject>(path: string): Promise<T | undefined>;
  create<T extends KubeObject = KubeObject>(collectionPath: string, obj: T): Promise<T>;
  /** PUT: optimistic concurrency through metadata.resourceVersion. */
  update<T extends KubeObject = KubeObject>(path: string, obj: T): Promise<T>;
  /** Deletes; a missing object is not an error. */
  remove(path: string): Promise<void>;
  list<T extends KubeObject = KubeObject>(collectionPath: string, labelSelector?: string): Promise<T[]>;
  /** GET of any JSON document (discovery). */
  read(path: string): Promise<unknown>;
}

export function upstreamObjectClient(upstream: Upstream): ObjectClient {
  const must = async <T>(method: string, path: string, ok: number[], body?: unknown): Promise<T> => {
    const res = await upstream.request<T>(method, path, body);
    if (!ok.includes(res.status)) throw statusError(res.status, res.body);
    return res.body;
  };
  return {
    async get<T extends KubeObject>(path: string) {
      const res = await upstream.request<T>('GET', path);
      if (res.status === 404) return undefined;
      if (res.status !== 200) throw statusError(res.status, res.body);
      return res.body;
    },
    create: (collectionPath, obj) => must('POST', collectionPath, [200, 201, 202], obj),
    update: (path, obj) => must('PUT', path, [200, 201], obj),
    async remove(path) {
      // Background propagation: namespaces and owners go away in the upstream's own time.
      const res = await upstream.request('DELETE', path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
      if (res.status !== 404 && (res.status < 200 || res.status > 202)) throw statusError(res.status, res.body);
    },
    async list<T extends KubeObject>(collectionPath: string, labelSelector?: string) {
      const items: T[] = [];
      let cont = '';
      do {
        const q = new URLSearchParams({ limit: '500' });
        if (labelSelector) q.set('labelSelector', labelSelector);
        if (cont) q.set('continue', cont);
        const body = await must<KubeList<T>>('GET', `${collectionPath}?${q.toString()}`, [200]);
        items.push(...body.items);
        cont = body.metadata.continue ?? '';
      } while (cont);
      return items;
    },
    read: (path) => must<unknown>('GET', path, [200]),
  };
}

