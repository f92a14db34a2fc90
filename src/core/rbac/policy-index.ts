// A snapshot of a tenant's RBAC objects, indexed so that deciding for one user
// touches only the bindings that name that user or one of its groups: cost grows
// with the user's bindings, not with the tenant's. The index only narrows the
// candidates; every candidate is still checked with kube's appliesTo, so the index
// can never grant what a linear scan would not.
import { aggregateClusterRoles } from './aggregation.ts';
import { subjectUserKey } from './subjects.ts';
import type { ClusterRole, ClusterRoleBinding, PolicySnapshot, Role, RoleBinding, UserInfo } from './types.ts';

export interface IndexedBinding<B> {
  binding: B;
  /** Position in the snapshot, so candidates are visited in a stable order. */
  order: number;
}

export interface PolicyIndex {
  clusterRole(name: string): ClusterRole | undefined;
  role(namespace: string, name: string): Role | undefined;
  /** ClusterRoleBindings that may name the user, in snapshot order. */
  clusterRoleBindingsFor(user: UserInfo): ClusterRoleBinding[];
  /** RoleBindings of one namespace that may name the user, in snapshot order. */
  roleBindingsFor(user: UserInfo, namespace: string): RoleBinding[];
}

type SubjectIndex<B> = Map<string, IndexedBinding<B>[]>;

const userKey = (name: string): string => `u:${name}`;
const groupKey = (name: string): string => `g:${name}`;

function addBinding<B extends { subjects?: ClusterRoleBinding['subjects'] }>(
  index: SubjectIndex<B>, binding: B, order: number, namespace: string,
): void {
  const keys = new Set<string>();
  for (const subject of binding.subjects ?? []) {
    if (subject.kind === 'Group') keys.add(groupKey(subject.name));
    else {
      const user = subjectUserKey(subject, namespace);
      if (user !== undefined) keys.add(userKey(user));
    }
  }
  for (const key of keys) {
    const list = index.get(key);
    if (list) list.push({ binding, order });
    else index.set(key, [{ binding, order }]);
  }
}

function candidates<B>(index: SubjectIndex<B> | undefined, user: UserInfo): B[] {
  if (!index) return [];
  const found = new Map<number, B>();
  for (const key of [userKey(user.name), ...user.groups.map(groupKey)]) {
    for (const entry of index.get(key) ?? []) found.set(entry.order, entry.binding);
  }
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, binding]) => binding);
}

/**
 * Builds the index. ClusterRoles are aggregated here (see aggregation.ts), so a
 * tenant's aggregated roles are computed from its own ClusterRoles only, whatever
 * an upstream controller may have written into them.
 */
export function buildPolicyIndex(snapshot: PolicySnapshot): PolicyIndex {
  const clusterRoles = new Map<string, ClusterRole>();
  for (const role of aggregateClusterRoles(snapshot.clusterRoles)) clusterRoles.set(role.metadata.name, role);
  const roles = new Map<string, Role>();
  for (const role of snapshot.roles) roles.set(`${role.metadata.namespace}/${role.metadata.name}`, role);

  const clusterIndex: SubjectIndex<ClusterRoleBinding> = new Map();
  snapshot.clusterRoleBindings.forEach((b, i) => addBinding(clusterIndex, b, i, ''));
  const namespaced = new Map<string, SubjectIndex<RoleBinding>>();
  snapshot.roleBindings.forEach((b, i) => {
    const ns = b.metadata.namespace;
    let index = namespaced.get(ns);
    if (!index) namespaced.set(ns, (index = new Map()));
    addBinding(index, b, i, ns);
  });

  return {
    clusterRole: (name) => clusterRoles.get(name),
    role: (namespace, name) => roles.get(`${namespace}/${name}`),
    clusterRoleBindingsFor: (user) => candidates(clusterIndex, user),
    roleBindingsFor: (user, namespace) => (namespace ? candidates(namespaced.get(namespace), user) : []),
  };
}

export function isPolicyIndex(policy: PolicySnapshot | PolicyIndex): policy is PolicyIndex {
  return typeof (policy as Partial<PolicyIndex>).clusterRoleBindingsFor === 'function';
}

/** Accepts either form, so callers that hold a snapshot need not index it themselves (the gateway should cache the index). */
export function asPolicyIndex(policy: PolicySnapshot | PolicyIndex): PolicyIndex {
  return isPolicyIndex(policy) ? policy : buildPolicyIndex(policy);
}
