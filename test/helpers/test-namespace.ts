// Each test works in its own namespace so tests never see each other's objects,
// and a real cluster is left as it was found.
import { randomBytes } from 'node:crypto';
import type { KubeHttp } from './kube-http.ts';

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export interface TestNamespaces {
  /** Creates a fresh namespace and remembers it for cleanup. */
  create(prefix?: string): Promise<string>;
  /** Deletes every namespace created here; does not wait for them to be gone. */
  cleanup(): Promise<void>;
}

export function testNamespaces(http: KubeHttp): TestNamespaces {
  const created: string[] = [];
  return {
    async create(prefix = 'ct') {
      const name = uniqueName(prefix);
      const res = await http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      if (res.status !== 201) throw new Error(`create namespace ${name}: ${res.status} ${res.text}`);
      created.push(name);
      return name;
    },
    async cleanup() {
      await Promise.all(created.splice(0).map((ns) => http.delete(`/api/v1/namespaces/${ns}`).catch(() => undefined)));
    },
  };
}
