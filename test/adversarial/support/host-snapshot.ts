// Before/after pictures of what the host (or a member) stores, for the
// resources an attack aims at: every object's uid and resourceVersion by key.
// A diff names what appeared, changed or vanished outside the attacker's
// prefix, which no request of that tenant may ever cause.
import type { KubeList, KubeObject } from '../../../src/core/types.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { keyInside, keyOf } from './tenant-scope.ts';

export type Snapshot = Map<string, { uid: string; rv: string; obj: KubeObject }>;

/** resource name → list path, for the kinds the hostile bodies use. */
export const WATCHED: Record<string, string> = {
  namespaces: '/api/v1/namespaces',
  configmaps: '/api/v1/configmaps',
  secrets: '/api/v1/secrets',
  serviceaccounts: '/api/v1/serviceaccounts',
  services: '/api/v1/services',
  roles: '/apis/rbac.authorization.k8s.io/v1/roles',
  rolebindings: '/apis/rbac.authorization.k8s.io/v1/rolebindings',
  clusterroles: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  clusterrolebindings: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  customresourcedefinitions: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
};

export async function snapshot(client: Upstream, resources: Record<string, string> = WATCHED): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const [resource, path] of Object.entries(resources)) {
    const res = await client.request<KubeList>('GET', path);
    if (res.status !== 200) throw new Error(`list ${path}: ${res.status}`);
    for (const obj of res.body.items) out.set(keyOf(resource, obj), { uid: obj.metadata.uid ?? '', rv: obj.metadata.resourceVersion ?? '', obj });
  }
  return out;
}

/** What appeared, changed or vanished between two snapshots outside `<id>-`. */
export function changedOutside(before: Snapshot, after: Snapshot, id: string): string[] {
  const out: string[] = [];
  for (const [key, now] of after) {
    if (keyInside(key, id)) continue;
    const then = before.get(key);
    if (!then) out.push(`appeared: ${key}`);
    else if (then.uid !== now.uid || then.rv !== now.rv) out.push(`changed: ${key}`);
  }
  for (const key of before.keys()) if (!keyInside(key, id) && !after.has(key)) out.push(`vanished: ${key}`);
  return out;
}

/** The objects inside `<id>-` that are new or changed since `before`. */
export function writtenInside(before: Snapshot, after: Snapshot, id: string): KubeObject[] {
  return [...after].filter(([key, now]) => keyInside(key, id) && (before.get(key)?.rv !== now.rv)).map(([, now]) => now.obj);
}

/** One object as the host (or a member) stores it, or undefined when it is not there. */
export async function storedAt(client: Pick<Upstream, 'request'>, path: string): Promise<KubeObject | undefined> {
  const res = await client.request<KubeObject>('GET', path);
  return res.status === 200 ? res.body : undefined;
}
