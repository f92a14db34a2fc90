// Properties of the whole decision over random small policies: the index agrees
// with a plain linear reading of kube's rules, removing a binding never grants
// more, and RoleBindings stay inside their namespace.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { authorize, buildPolicyIndex, ruleAllows } from '../../../../src/core/rbac/index.ts';
import type {
  AuthorizationAttributes, ClusterRoleBinding, PolicyRule, PolicySnapshot, RoleBinding, Subject, UserInfo,
} from '../../../../src/core/rbac/index.ts';
import { clusterRole, clusterRoleBinding, request, role, roleBinding, snapshot, User, user } from './rbac-fixtures.ts';

const NAMESPACES = ['a', 'b'];
const pick = <T>(xs: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...xs);

const ruleArb: fc.Arbitrary<PolicyRule> = fc.record({
  verbs: fc.subarray(['get', 'list', 'create', '*'], { minLength: 1 }),
  apiGroups: fc.subarray(['', 'apps', '*'], { minLength: 1 }),
  resources: fc.subarray(['pods', 'pods/log', 'deployments', '*', '*/status', 'namespaces'], { minLength: 1 }),
  resourceNames: fc.oneof(fc.constant([] as string[]), fc.subarray(['x', 'y'], { minLength: 1 })),
});
const subjectArb: fc.Arbitrary<Subject> = fc.oneof(
  pick(['alice', 'bob', 'system:serviceaccount:a:bot']).map((name): Subject => ({ kind: 'User', name })),
  pick(['devs', 'ops', 'system:authenticated']).map((name): Subject => ({ kind: 'Group', name })),
  fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constant('bot'), namespace: pick(['', 'a', 'b']) }).map((s): Subject =>
    (s.namespace ? s : { kind: s.kind, name: s.name })),
);
const roleNames = ['r1', 'r2', 'r3'];

const policyArb: fc.Arbitrary<PolicySnapshot> = fc.record({
  // Names are unique per scope, as the store guarantees.
  roles: fc.uniqueArray(fc.tuple(pick(NAMESPACES), pick(roleNames), fc.array(ruleArb, { maxLength: 3 })), { maxLength: 4, selector: ([ns, name]) => `${ns}/${name}` })
    .map((xs) => xs.map(([ns, name, rules]) => role(ns, name, rules))),
  clusterRoles: fc.uniqueArray(fc.tuple(pick(roleNames), fc.array(ruleArb, { maxLength: 3 })), { maxLength: 3, selector: ([name]) => name })
    .map((xs) => xs.map(([name, rules]) => clusterRole(name, rules))),
  roleBindings: fc.array(fc.tuple(pick(NAMESPACES), pick(['Role', 'ClusterRole'] as const), pick(roleNames), fc.array(subjectArb, { maxLength: 3 })), { maxLength: 5 })
    .map((xs) => xs.map(([ns, kind, name, subjects], i) => roleBinding(ns, `rb${i}`, { kind, name }, subjects))),
  clusterRoleBindings: fc.array(fc.tuple(pick(roleNames), fc.array(subjectArb, { maxLength: 3 })), { maxLength: 3 })
    .map((xs) => xs.map(([name, subjects], i) => clusterRoleBinding(`crb${i}`, name, subjects))),
});

const userArb: fc.Arbitrary<UserInfo> = fc.record({
  name: pick(['alice', 'bob', 'carol', 'system:serviceaccount:a:bot', 'system:serviceaccount:b:bot']),
  groups: fc.subarray(['devs', 'ops']),
});
const attrsArb: fc.Arbitrary<AuthorizationAttributes> = fc.record({
  user: userArb,
  verb: pick(['get', 'list', 'create', 'delete']),
  apiGroup: pick(['', 'apps']),
  resource: pick(['pods', 'deployments', 'namespaces', 'secrets']),
  subresource: pick(['', 'log', 'status']),
  name: pick(['', 'x', 'z']),
  namespace: pick(['', ...NAMESPACES, 'c']),
}).map((a) => request(a.user, a.verb, a));

// The semantics read straight off kube's rule resolver, with no index.
function linearModel(attrs: AuthorizationAttributes, p: PolicySnapshot): boolean {
  const u = { name: attrs.user.name, groups: [...attrs.user.groups, 'system:authenticated'] };
  const applies = (s: Subject, ns: string): boolean =>
    s.kind === 'User' ? s.name === u.name
      : s.kind === 'Group' ? u.groups.includes(s.name)
        : s.kind === 'ServiceAccount' && (s.namespace || ns) !== '' && `system:serviceaccount:${s.namespace || ns}:${s.name}` === u.name;
  const crRules = (name: string): PolicyRule[] => p.clusterRoles.find((r) => r.metadata.name === name)?.rules ?? [];
  const fromCluster = (b: ClusterRoleBinding): PolicyRule[] => (b.roleRef.kind === 'ClusterRole' ? crRules(b.roleRef.name) : []);
  const fromNamespaced = (b: RoleBinding): PolicyRule[] => (b.roleRef.kind === 'ClusterRole' ? crRules(b.roleRef.name)
    : p.roles.find((r) => r.metadata.namespace === b.metadata.namespace && r.metadata.name === b.roleRef.name)?.rules ?? []);
  const granted = [
    ...p.clusterRoleBindings.filter((b) => (b.subjects ?? []).some((s) => applies(s, ''))).flatMap(fromCluster),
    ...p.roleBindings.filter((b) => attrs.namespace !== '' && b.metadata.namespace === attrs.namespace && (b.subjects ?? []).some((s) => applies(s, attrs.namespace)))
      .flatMap(fromNamespaced),
  ];
  return granted.some((r) => ruleAllows(attrs, r));
}

describe('authorize: properties', () => {
  it('agrees with a linear reading of the policy', () => {
    fc.assert(fc.property(policyArb, attrsArb, (p, attrs) => authorize(attrs, buildPolicyIndex(p)).allowed === linearModel(attrs, p)), { numRuns: 2000 });
  });

  it('removing a binding never grants more', () => {
    fc.assert(fc.property(policyArb, attrsArb, fc.nat(), fc.boolean(), (p, attrs, at, fromCluster) => {
      const list = fromCluster ? p.clusterRoleBindings : p.roleBindings;
      if (list.length === 0) return true;
      const i = at % list.length;
      const smaller = fromCluster
        ? { ...p, clusterRoleBindings: p.clusterRoleBindings.filter((_, j) => j !== i) }
        : { ...p, roleBindings: p.roleBindings.filter((_, j) => j !== i) };
      return !authorize(attrs, smaller).allowed || authorize(attrs, p).allowed;
    }), { numRuns: 1000 });
  });

  it('RoleBindings never grant outside their namespace, nor at cluster scope', () => {
    fc.assert(fc.property(policyArb, attrsArb, (p, attrs) => {
      const onlyInA = { ...p, clusterRoleBindings: [], roleBindings: p.roleBindings.filter((b) => b.metadata.namespace === 'a') };
      return attrs.namespace === 'a' || !authorize(attrs, onlyInA).allowed;
    }), { numRuns: 1000 });
  });
});

describe('buildPolicyIndex: cost follows the user, not the tenant', () => {
  it('never reads the roleRef of a binding that does not name the user', () => {
    const touched = new Set<string>();
    const counted = <B extends { roleRef: unknown; metadata: { name: string } }>(b: B): B => {
      const { roleRef } = b;
      return Object.defineProperty({ ...b }, 'roleRef', { get: () => { touched.add(b.metadata.name); return roleRef; } });
    };
    const others = Array.from({ length: 5000 }, (_, i) => counted(clusterRoleBinding(`other-${i}`, 'reader', [User(`user-${i}`)])));
    const othersNs = Array.from({ length: 5000 }, (_, i) => counted(roleBinding('a', `other-${i}`, { kind: 'ClusterRole', name: 'reader' }, [User(`user-${i}`)])));
    const index = buildPolicyIndex(snapshot({
      clusterRoles: [clusterRole('reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])],
      clusterRoleBindings: [...others, clusterRoleBinding('mine', 'reader', [User('alice')])],
      roleBindings: othersNs,
    }));
    assert.equal(authorize(request(user('alice'), 'get', { resource: 'pods', namespace: 'a', name: 'p' }), index).allowed, true);
    assert.equal(authorize(request(user('alice'), 'delete', { resource: 'pods', namespace: 'a', name: 'p' }), index).allowed, false);
    assert.deepEqual([...touched], []);
    authorize(request(user('user-7'), 'delete', { resource: 'pods', namespace: 'a', name: 'p' }), index);
    assert.deepEqual([...touched], ['other-7']);
  });
});
