// Keys inside one resource: "<namespace>/<name>" ('' namespace for cluster-scoped,
// so "/<name>"). Ordering is namespace first, then name, which plain string order
// gets wrong ("a-b/x" < "a/x" because '-' < '/'), hence compareKeys.
import type { Subject } from '../../core/api-error.ts';
import type { ObjectKey } from './store.ts';

export function keyOf(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Orders by namespace, then name: the separator '/' sorts before every other character. */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca === 0x2f) return -1;
    if (cb === 0x2f) return 1;
    return ca - cb;
  }
  return a.length - b.length;
}

/** "deployments.apps" → { resource: 'deployments', group: 'apps' }, for kube-style error messages. */
export function subjectOf(key: ObjectKey): Subject {
  const dot = key.resource.indexOf('.');
  const subject: Subject = dot < 0 ? { resource: key.resource } : { resource: key.resource.slice(0, dot), group: key.resource.slice(dot + 1) };
  subject.name = key.name;
  return subject;
}
