// kube's escalation and bind checks over a tenant's policy: the two breaks an
// attacker showed (a RoleBinding to cluster-admin by a user who may only create
// RoleBindings; a user who may only update his Role rewriting it to "*"), the
// legitimate cases, escalate/bind with resourceNames, aggregation, and messages
// as a real kube-apiserver 1.20 writes them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildPolicyIndex, checkBindingWrite, checkRoleWrite, defaultClusterRoles, type PolicySnapshot, type PolicyRule } from '../../../../src/core/rbac/index.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, snapshot, User, user } from './rbac-fixtures.ts';

const RBAC = 'rbac.authorization.k8s.io';
const ALL: PolicyRule = rule(['*'], ['*'], ['*']);

/** bob may write RoleBindings and Roles in t (not escalate or bind), and read pods there. */
function bobsTenant(extra: Partial<PolicySnapshot> = {}): PolicySnapshot {
  return snapshot({
    clusterRoles: [...defaultClusterRoles(), ...(extra.clusterRoles ?? [])],
    clusterRoleBindings: [clusterRoleBinding('admins', 'cluster-admin', [User('root')]), ...(extra.clusterRoleBindings ?? [])],
    roles: [role('t', 'rb-writer', [rule(['create', 'update', 'patch', 'get'], [RBAC], ['rolebindings', 'roles']), rule(['get', 'list'], [''], ['pods'])]), ...(extra.roles ?? [])],
    roleBindings: [roleBinding('t', 'bob-rb-writer', { kind: 'Role', name: 'rb-writer' }, [User('bob')]), ...(extra.roleBindings ?? [])],
  });
}

const bob = user('bob', 'devs');
const bindingTo = (kind: 'Role' | 'ClusterRole', name: string, bindingName = 'b') =>
  ({ metadata: { name: bindingName }, roleRef: { apiGroup: RBAC, kind, name } });

function refusal(err: ApiError | undefined): { code: number; message: string } {
  assert.ok(err, 'expected a refusal');
  return { code: err.code, message: err.message };
}

describe('binding writes (bind check)', () => {
  it('break 1: a user who may only create RoleBindings cannot bind himself cluster-admin (kube\'s 403, word for word)', () => {
    const index = buildPolicyIndex(bobsTenant());
    const err = checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'cluster-admin', 'bob-admin') });
    assert.deepEqual(refusal(err), {
      code: 403,
      message: 'rolebindings.rbac.authorization.k8s.io "bob-admin" is forbidden: user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
        + '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    });
    assert.equal(err?.toStatus().reason, 'Forbidden');
  });

  it('the same binding as a ClusterRoleBinding is judged on cluster-wide rules only', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.equal(checkBindingWrite(index, bob, { resource: 'clusterrolebindings', namespace: '', binding: bindingTo('ClusterRole', 'cluster-admin') })?.code, 403);
  });

  it('binding a role whose rules the caller holds in the namespace is allowed (its own Role, a smaller one)', () => {
    const index = buildPolicyIndex(bobsTenant({ roles: [role('t', 'pod-reader', [rule(['get'], [''], ['pods'])])] }));
    assert.equal(checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('Role', 'rb-writer') }), undefined);
    assert.equal(checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('Role', 'pod-reader') }), undefined);
  });

  it('rules held in one namespace do not cover a binding in another', () => {
    const index = buildPolicyIndex(bobsTenant({ roles: [role('u', 'pod-reader', [rule(['get'], [''], ['pods'])])] }));
    assert.equal(checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 'u', binding: bindingTo('Role', 'pod-reader') })?.code, 403);
  });

  it('view lists what is missing, compacted by verb as kube does', () => {
    const index = buildPolicyIndex(bobsTenant());
    const message = checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'view') })?.message ?? '';
    assert.match(message, /\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["watch"\]\}\n/);
    assert.match(message, /\n\{APIGroups:\["apps"\], Resources:\["deployments"\], Verbs:\["get" "list" "watch"\]\}\n/);
  });

  it('bind on the role (resourceNames honoured) allows it; bind on another name does not', () => {
    const bindView = (names: string[]) => bobsTenant({
      roles: [role('t', 'binder', [rule(['bind'], [RBAC], ['clusterroles'], names)])],
      roleBindings: [roleBinding('t', 'bob-binder', { kind: 'Role', name: 'binder' }, [User('bob')])],
    });
    assert.equal(checkBindingWrite(buildPolicyIndex(bindView(['view'])), bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'view') }), undefined);
    assert.equal(checkBindingWrite(buildPolicyIndex(bindView(['edit'])), bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'view') })?.code, 403);
    // bind granted in t does not reach a ClusterRoleBinding.
    assert.equal(checkBindingWrite(buildPolicyIndex(bindView(['view'])), bob, { resource: 'clusterrolebindings', namespace: '', binding: bindingTo('ClusterRole', 'view') })?.code, 403);
  });

  it('a roleRef that does not resolve is kube\'s 404, unless the caller may bind it', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.deepEqual(refusal(checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'does-not-exist') })), {
      code: 404, message: 'clusterroles.rbac.authorization.k8s.io "does-not-exist" not found',
    });
    const binder = buildPolicyIndex(bobsTenant({ clusterRoleBindings: [clusterRoleBinding('bob-binds', 'binds-all', [User('bob')])], clusterRoles: [clusterRole('binds-all', [rule(['bind'], [RBAC], ['*'])])] }));
    assert.equal(checkBindingWrite(binder, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'does-not-exist') }), undefined);
  });

  it('a binding to an aggregated ClusterRole is judged on its aggregated rules', () => {
    const agg = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { feed: 'agg' } }] }, rules: [] };
    const index = buildPolicyIndex(bobsTenant({ clusterRoles: [agg, clusterRole('secret-reader', [rule(['get'], [''], ['secrets'])], { feed: 'agg' })] }));
    const message = checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'agg') })?.message ?? '';
    assert.match(message, /\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}$/);
  });

  it('the tenant admin (cluster-admin) may bind anything', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.equal(checkBindingWrite(index, user('root'), { resource: 'clusterrolebindings', namespace: '', binding: bindingTo('ClusterRole', 'cluster-admin') }), undefined);
  });

  it('system:masters is just a group name inside a tenant: no bypass', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.equal(checkBindingWrite(index, user('bob', 'system:masters'), { resource: 'rolebindings', namespace: 't', binding: bindingTo('ClusterRole', 'cluster-admin') })?.code, 403);
  });

  it('a forged roleRef (a number for a name) is a 400, as the decoder would answer', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.throws(() => checkBindingWrite(index, bob, { resource: 'rolebindings', namespace: 't', binding: { metadata: { name: 'b' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 5 } } }),
      (e: unknown) => e instanceof ApiError && e.code === 400);
  });
});

describe('role writes (escalate check)', () => {
  const roleWrite = (rules: unknown, extra: { name?: string; aggregationRule?: unknown; resource?: 'roles' | 'clusterroles'; namespace?: string; requestName?: string } = {}) => ({
    resource: extra.resource ?? 'roles' as const, namespace: extra.namespace ?? 't', requestName: extra.requestName ?? '',
    role: { metadata: { name: extra.name ?? 'rb-writer' }, rules, ...(extra.aggregationRule ? { aggregationRule: extra.aggregationRule } : {}) },
  });

  it('break 2: a user who may only update his own Role cannot rewrite it to "*" (kube\'s 403, word for word)', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.deepEqual(refusal(checkRoleWrite(index, user('bob'), roleWrite([ALL], { requestName: 'rb-writer' }))), {
      code: 403,
      message: 'roles.rbac.authorization.k8s.io "rb-writer" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
        + '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    });
  });

  it('a Role with rules the caller holds in its namespace is allowed; in another namespace it is not', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.equal(checkRoleWrite(index, bob, roleWrite([rule(['get'], [''], ['pods'])], { name: 'r' })), undefined);
    assert.equal(checkRoleWrite(index, bob, roleWrite([rule(['get'], [''], ['pods'])], { name: 'r', namespace: 'u' }))?.code, 403);
  });

  it('a ClusterRole is judged on cluster-wide rules: namespaced grants do not cover it', () => {
    const index = buildPolicyIndex(bobsTenant());
    assert.equal(checkRoleWrite(index, bob, roleWrite([rule(['get'], [''], ['pods'])], { resource: 'clusterroles', namespace: '', name: 'c' }))?.code, 403);
  });

  it('escalate on the role resource allows any rules (resourceNames honoured for updates)', () => {
    const escalator = (names: string[]) => buildPolicyIndex(bobsTenant({
      roles: [role('t', 'esc', [rule(['escalate'], [RBAC], ['roles'], names)])],
      roleBindings: [roleBinding('t', 'bob-esc', { kind: 'Role', name: 'esc' }, [User('bob')])],
    }));
    assert.equal(checkRoleWrite(escalator(['rb-writer']), bob, roleWrite([ALL], { requestName: 'rb-writer' })), undefined);
    assert.equal(checkRoleWrite(escalator(['other']), bob, roleWrite([ALL], { requestName: 'rb-writer' }))?.code, 403);
    // A create has no name in the URL, so a name-restricted escalate never covers it (kube's behaviour).
    assert.equal(checkRoleWrite(escalator(['rb-writer']), bob, roleWrite([ALL], { requestName: '' }))?.code, 403);
    assert.equal(checkRoleWrite(escalator([]), bob, roleWrite([ALL], { requestName: '' })), undefined);
  });

  it('an aggregationRule needs full authority, even from a caller who holds the (empty) rules', () => {
    const index = buildPolicyIndex(bobsTenant({ clusterRoleBindings: [clusterRoleBinding('bob-crw', 'crw', [User('bob')])], clusterRoles: [clusterRole('crw', [rule(['create', 'update'], [RBAC], ['clusterroles'])])] }));
    const agg = { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] };
    assert.deepEqual(refusal(checkRoleWrite(index, bob, roleWrite([], { resource: 'clusterroles', namespace: '', name: 'agg', aggregationRule: agg }))), {
      code: 403, message: 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    });
    // Removing one from a stored role needs it too (the default admin role aggregates).
    assert.equal(checkRoleWrite(index, bob, roleWrite([], { resource: 'clusterroles', namespace: '', name: 'admin', requestName: 'admin' }))?.code, 403);
    assert.equal(checkRoleWrite(index, user('root'), roleWrite([], { resource: 'clusterroles', namespace: '', name: 'agg', aggregationRule: agg })), undefined);
  });

  it('forged rules: null inside a list is Go\'s "" (the core group), not nothing', () => {
    const index = buildPolicyIndex(bobsTenant());
    const err = checkRoleWrite(index, bob, roleWrite([{ apiGroups: [null], resources: ['secrets'], verbs: ['get'] }], { name: 'r' }));
    assert.match(err?.message ?? '', /\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}/);
  });

  it('forged rules that would not decode are a 400, never a pass', () => {
    const index = buildPolicyIndex(bobsTenant());
    for (const rules of ['*', { verbs: ['*'] }, [{ verbs: '*', apiGroups: ['*'], resources: ['*'] }], [{ verbs: [1], apiGroups: ['*'], resources: ['*'] }], [7]]) {
      assert.throws(() => checkRoleWrite(index, bob, roleWrite(rules, { name: 'r' })), (e: unknown) => e instanceof ApiError && e.code === 400, JSON.stringify(rules));
    }
  });
});
