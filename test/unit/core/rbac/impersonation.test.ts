// kube's impersonation rules over a tenant's RBAC, with the 403s a real
// kube-apiserver 1.20 answers (checked with a ServiceAccount token against it):
//   users "alice" is forbidden: User "system:serviceaccount:t:imp" cannot impersonate resource "users" in API group "" at the cluster scope
//   groups "g1" is forbidden: ... cannot impersonate resource "groups" in API group "" at the cluster scope
//   serviceaccounts "other" is forbidden: ... cannot impersonate resource "serviceaccounts" in API group "" in the namespace "t"
//   userextras.authentication.k8s.io "v1" is forbidden: ... cannot impersonate resource "userextras/scopes/x" in API group "authentication.k8s.io" at the cluster scope
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildPolicyIndex, impersonate, impersonationRequestOf, splitServiceAccountUsername, type PolicyRule } from '../../../../src/core/rbac/index.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { clusterRole, clusterRoleBinding, rule, snapshot, User, user } from './rbac-fixtures.ts';

const AUTHN = 'authentication.k8s.io';
const imp = user('imp', 'ops');
const policy = (...rules: PolicyRule[]) => buildPolicyIndex(snapshot({
  clusterRoles: [clusterRole('imp', rules)],
  clusterRoleBindings: [clusterRoleBinding('imp', 'imp', [User('imp')])],
}));
const H = (...pairs: Array<[string, string]>) => pairs;

function refusedWith(fn: () => unknown, code: number, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, code);
    assert.equal(e.message, message);
    return true;
  });
}

describe('impersonation headers', () => {
  it('nothing asked: undefined; the first Impersonate-User and Impersonate-Uid win, groups and extras keep their order', () => {
    assert.equal(impersonationRequestOf([]), undefined);
    assert.deepEqual(impersonationRequestOf(H(['Impersonate-User', 'alice'], ['impersonate-user', 'eve'], ['Impersonate-Group', 'g1'], ['IMPERSONATE-GROUP', 'g2'],
      ['Impersonate-Extra-Scopes%2Fx', 'v1'], ['Impersonate-Extra-scopes%2fx', 'v2'], ['Impersonate-Uid', 'u1'])), {
      user: 'alice', uid: 'u1', groups: ['g1', 'g2'], extra: [['scopes/x', 'v1'], ['scopes/x', 'v2']],
    });
  });

  it('a group, uid or extra without a user is a 400 (kube 1.20 said 500; newer releases 400)', () => {
    for (const lines of [H(['Impersonate-Group', 'g1']), H(['Impersonate-Uid', 'u']), H(['Impersonate-Extra-a', 'b']), H(['Impersonate-User', ''], ['Impersonate-Group', 'g'])]) {
      assert.throws(() => impersonationRequestOf(lines), (e: unknown) => e instanceof ApiError && e.code === 400 && /without impersonating a user name/.test(e.message));
    }
  });

  it('ServiceAccount user names split as kube\'s SplitUsername does', () => {
    assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:t:bot'), { namespace: 't', name: 'bot' });
    assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:t:a.b'), { namespace: 't', name: 'a.b' });
    for (const bad of ['system:serviceaccount:t', 'system:serviceaccount:t:b:c', 'system:serviceaccount::b', 'system:serviceaccount:T:b', 'system:serviceaccount:t:', 'alice']) {
      assert.equal(splitServiceAccountUsername(bad), undefined, bad);
    }
  });
});

describe('impersonate', () => {
  it('refused without impersonate on users: kube\'s 403', () => {
    refusedWith(() => impersonate(policy(), imp, { user: 'alice', uid: '', groups: [], extra: [] }), 403,
      'users "alice" is forbidden: User "imp" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('allowed for the named user only (resourceNames honoured); groups are then system:authenticated', () => {
    const index = policy(rule(['impersonate'], [''], ['users'], ['alice']));
    assert.deepEqual(impersonate(index, imp, { user: 'alice', uid: '', groups: [], extra: [] }), { name: 'alice', groups: ['system:authenticated'] });
    refusedWith(() => impersonate(index, imp, { user: 'bob', uid: '', groups: [], extra: [] }), 403,
      'users "bob" is forbidden: User "imp" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('each group is authorized separately: the first one refused is the 403', () => {
    const index = policy(rule(['impersonate'], [''], ['users']), rule(['impersonate'], [''], ['groups'], ['g1']));
    assert.deepEqual(impersonate(index, imp, { user: 'alice', uid: '', groups: ['g1'], extra: [] }), { name: 'alice', groups: ['g1', 'system:authenticated'] });
    refusedWith(() => impersonate(index, imp, { user: 'alice', uid: '', groups: ['g1', 'g2'], extra: [] }), 403,
      'groups "g2" is forbidden: User "imp" cannot impersonate resource "groups" in API group "" at the cluster scope');
  });

  it('a ServiceAccount is checked against serviceaccounts in its namespace and gets its fixed groups', () => {
    const nsPolicy = buildPolicyIndex(snapshot({
      roles: [{ metadata: { namespace: 't', name: 'imp-sa' }, rules: [rule(['impersonate'], [''], ['serviceaccounts'])] }],
      roleBindings: [{ metadata: { namespace: 't', name: 'imp-sa' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'imp-sa' }, subjects: [User('imp')] }],
    }));
    assert.deepEqual(impersonate(nsPolicy, imp, { user: 'system:serviceaccount:t:bot', uid: '', groups: [], extra: [] }), {
      name: 'system:serviceaccount:t:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:t', 'system:authenticated'],
    });
    refusedWith(() => impersonate(nsPolicy, imp, { user: 'system:serviceaccount:other:bot', uid: '', groups: [], extra: [] }), 403,
      'serviceaccounts "bot" is forbidden: User "imp" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"');
    // impersonate on users does not cover a ServiceAccount name.
    refusedWith(() => impersonate(policy(rule(['impersonate'], [''], ['users'])), imp, { user: 'system:serviceaccount:t:bot', uid: '', groups: [], extra: [] }), 403,
      'serviceaccounts "bot" is forbidden: User "imp" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "t"');
  });

  it('extras and uids are authorized in authentication.k8s.io, the extra key as subresource', () => {
    const index = policy(rule(['impersonate'], [''], ['users']));
    refusedWith(() => impersonate(index, imp, { user: 'alice', uid: '', groups: [], extra: [['scopes/x', 'v1']] }), 403,
      'userextras.authentication.k8s.io "v1" is forbidden: User "imp" cannot impersonate resource "userextras/scopes/x" in API group "authentication.k8s.io" at the cluster scope');
    refusedWith(() => impersonate(index, imp, { user: 'alice', uid: 'u1', groups: [], extra: [] }), 403,
      'uids.authentication.k8s.io "u1" is forbidden: User "imp" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope');
    const all = policy(rule(['impersonate'], ['', AUTHN], ['users', 'userextras/scopes/x', 'uids']));
    const out = impersonate(all, imp, { user: 'alice', uid: 'u1', groups: [], extra: [['scopes/x', 'v1'], ['scopes/x', 'v2']] });
    assert.deepEqual({ ...out, extra: { ...out.extra } }, { name: 'alice', groups: ['system:authenticated'], uid: 'u1', extra: { 'scopes/x': ['v1', 'v2'] } });
  });

  it('system:anonymous gets system:unauthenticated; asked groups carrying either marker are kept as they are', () => {
    const index = policy(rule(['impersonate'], [''], ['users', 'groups']));
    assert.deepEqual(impersonate(index, imp, { user: 'system:anonymous', uid: '', groups: [], extra: [] }).groups, ['system:unauthenticated']);
    assert.deepEqual(impersonate(index, imp, { user: 'alice', uid: '', groups: ['system:unauthenticated'], extra: [] }).groups, ['system:unauthenticated']);
  });

  it('an extra key named __proto__ is just a key', () => {
    const index = policy(rule(['impersonate'], ['', AUTHN], ['*']));
    assert.deepEqual(impersonate(index, imp, { user: 'alice', uid: '', groups: [], extra: [['__proto__', 'x']] }).extra?.['__proto__'], ['x']);
  });

  it('property: an impersonation is granted only if every attribute is allowed on its own', () => {
    const names = ['alice', 'bob', 'system:serviceaccount:t:bot'];
    const ruleArb = fc.record({
      verbs: fc.subarray(['impersonate', 'get', '*'], { minLength: 1 }),
      apiGroups: fc.subarray(['', AUTHN, '*'], { minLength: 1 }),
      resources: fc.subarray(['users', 'groups', 'serviceaccounts', 'uids', 'userextras/k', '*'], { minLength: 1 }),
      resourceNames: fc.oneof(fc.constant([] as string[]), fc.subarray(['alice', 'bot', 'g1', 'u1', 'v'], { minLength: 1 })),
    });
    fc.assert(fc.property(fc.array(ruleArb, { maxLength: 4 }), fc.constantFrom(...names), fc.subarray(['g1', 'g2']), fc.constantFrom('', 'u1'), fc.boolean(),
      (rules, name, groups, uid, withExtra) => {
        const index = policy(...rules);
        const wanted = { user: name, uid, groups, extra: withExtra ? [['k', 'v'] as [string, string]] : [] };
        let granted = true;
        try { impersonate(index, imp, wanted); } catch { granted = false; }
        const one = (w: typeof wanted): boolean => { try { impersonate(index, imp, w); return true; } catch { return false; } };
        const userOnly = one({ user: name, uid: '', groups: [], extra: [] });
        if (granted) assert.ok(userOnly, 'granted without the user being allowed');
        if (!userOnly) assert.equal(granted, false);
        for (const g of groups) if (granted) assert.ok(one({ user: name, uid: '', groups: [g], extra: [] }));
      }), { numRuns: 500 });
  });
});
