import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { buildPolicyIndex, selfSubjectAccessReview, selfSubjectRulesReview } from '../../../../src/core/rbac/index.ts';
import { clusterRole, clusterRoleBinding, Group, role, roleBinding, rule, snapshot, urlRule, User, user } from './rbac-fixtures.ts';

const alice = user('alice');
const policy = snapshot({
  clusterRoles: [
    clusterRole('reader', [rule(['get', 'list'], [''], ['pods']), urlRule(['get'], ['/healthz', '/apis/*'])]),
    clusterRole('named', [rule(['get'], [''], ['configmaps'], ['cm1'])]),
  ],
  roles: [role('a', 'deployer', [rule(['create', 'update'], ['apps'], ['deployments', 'deployments/scale'])])],
  clusterRoleBindings: [clusterRoleBinding('read', 'reader', [User('alice')]), clusterRoleBinding('everyone', 'named', [Group('system:authenticated')])],
  roleBindings: [roleBinding('a', 'deploy', { kind: 'Role', name: 'deployer' }, [User('alice')])],
});

describe('selfSubjectAccessReview', () => {
  const cases = [
    {
      name: 'resource attributes, allowed', spec: { resourceAttributes: { namespace: 'a', verb: 'create', group: 'apps', resource: 'deployments' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "deploy/a" of Role "deployer" to User "alice"' },
    },
    { name: 'resource attributes, other namespace', spec: { resourceAttributes: { namespace: 'b', verb: 'create', group: 'apps', resource: 'deployments' } }, status: { allowed: false } },
    {
      name: 'subresource', spec: { resourceAttributes: { namespace: 'a', verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', name: 'd' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "deploy/a" of Role "deployer" to User "alice"' },
    },
    {
      name: 'resourceNames through the implicit group', spec: { resourceAttributes: { namespace: 'x', verb: 'get', resource: 'configmaps', name: 'cm1' } },
      status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "everyone" of ClusterRole "named" to Group "system:authenticated"' },
    },
    { name: 'resourceNames: no name, no grant', spec: { resourceAttributes: { namespace: 'x', verb: 'get', resource: 'configmaps' } }, status: { allowed: false } },
    {
      name: 'non-resource attributes', spec: { nonResourceAttributes: { path: '/apis/apps', verb: 'get' } },
      status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "read" of ClusterRole "reader" to User "alice"' },
    },
    { name: 'non-resource attributes, denied', spec: { nonResourceAttributes: { path: '/metrics', verb: 'get' } }, status: { allowed: false } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(selfSubjectAccessReview(c.spec, alice, policy), c.status));

  it('neither attribute kind: 422 as kube', () => {
    assert.throws(() => selfSubjectAccessReview({}, alice, policy), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 422);
      assert.equal(err.message, 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
      return true;
    });
  });
  it('both attribute kinds: 422 on nonResourceAttributes', () => {
    assert.throws(() => selfSubjectAccessReview({ resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } }, alice, policy), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 422);
      assert.equal(err.details?.causes?.[0]?.field, 'spec.nonResourceAttributes');
      return true;
    });
  });
});

describe('selfSubjectRulesReview', () => {
  it('lists cluster rules then the namespace rules, unmerged, with empty lists omitted', () => {
    assert.deepEqual(selfSubjectRulesReview('a', alice, buildPolicyIndex(policy)), {
      resourceRules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm1'] },
        { verbs: ['create', 'update'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] }],
      incomplete: false,
    });
  });
  it('another namespace shows only the cluster-wide rules', () => {
    assert.deepEqual(selfSubjectRulesReview('b', alice, policy).resourceRules.map((r) => r.resources), [['pods'], ['configmaps']]);
  });
  it('a user with no bindings gets empty lists, not absent ones', () => {
    assert.deepEqual(selfSubjectRulesReview('a', user('system:anonymous'), policy), { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
  it('unresolvable roleRefs are reported in evaluationError', () => {
    const broken = snapshot({ roleBindings: [roleBinding('a', 'x', { kind: 'Role', name: 'gone' }, [User('alice')])] });
    assert.deepEqual(selfSubjectRulesReview('a', alice, broken), {
      resourceRules: [], nonResourceRules: [], incomplete: false, evaluationError: 'role.rbac.authorization.k8s.io "gone" not found',
    });
  });
  it('no namespace: 400 "no namespace on request"', () => {
    assert.throws(() => selfSubjectRulesReview('', alice, policy), (err: unknown) => err instanceof ApiError && err.code === 400 && err.message === 'no namespace on request');
  });
});
