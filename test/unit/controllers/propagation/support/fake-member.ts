// A member as a map of paths, for the engine's pure-ish member writes
// (applyToMember, deleteFromMember): GET, DELETE with the uid precondition, and
// the server-side apply PATCH, recorded so a property can judge every write.
import type { KubeObject } from '../../../../../src/core/types.ts';
import type { Upstream, UpstreamResponse } from '../../../../../src/kube/upstream.ts';
import { namespacedPath, type TemplateResource } from '../../../../../src/controllers/propagation/template-resources.ts';

export type Stored = { row: TemplateResource; obj: KubeObject };

export interface Write {
  path: string;
  /** What the path held before the write (undefined: nothing). */
  before: KubeObject | undefined;
  body: KubeObject;
}

export function fakeMember(objects: Stored[]): { member: Upstream; deleted: Stored[]; applied: Write[] } {
  const byPath = new Map<string, Stored>();
  const pathOf = (s: Stored): string => `${namespacedPath(s.row, s.obj.metadata.namespace ?? '')}/${encodeURIComponent(s.obj.metadata.name ?? '')}`;
  for (const s of objects) byPath.set(pathOf(s), s);
  const deleted: Stored[] = [];
  const applied: Write[] = [];
  const answer = <T>(status: number, body: unknown): UpstreamResponse<T> => ({ status, body: body as T, headers: {} } as UpstreamResponse<T>);
  const member = {
    server: 'https://member', requestOptions: () => ({}), stream: () => Promise.reject(new Error('no streams')), close: () => undefined,
    async request<T>(method: string, path: string, body?: unknown): Promise<UpstreamResponse<T>> {
      const bare = path.split('?')[0] ?? path;
      const found = byPath.get(bare);
      if (method === 'GET') return found ? answer<T>(200, structuredClone(found.obj)) : answer<T>(404, { kind: 'Status', code: 404 });
      if (method === 'DELETE') {
        if (!found) return answer<T>(404, { kind: 'Status', code: 404 });
        const uid = (body as { preconditions?: { uid?: string } } | undefined)?.preconditions?.uid;
        if (uid !== undefined && uid !== found.obj.metadata.uid) return answer<T>(409, { kind: 'Status', code: 409 });
        byPath.delete(bare);
        deleted.push(found);
        return answer<T>(200, {});
      }
      if (method === 'PATCH') {
        const obj = structuredClone(body as KubeObject);
        applied.push({ path: bare, before: found ? structuredClone(found.obj) : undefined, body: obj });
        return answer<T>(found ? 200 : 201, obj);
      }
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as Upstream;
  return { member, deleted, applied };
}
