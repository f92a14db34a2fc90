import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authorize, buildPolicyIndex } from '../../../../src/core/rbac/index.ts';
import type { AuthorizationAttributes, PolicySnapshot } from '../../../../src/core/rbac/index.ts';
import {
  clusterRole, clusterRoleBinding, Group, pathRequest, request, role, roleBinding, rule, SA, snapshot, urlRule, User, user,
} from './rbac-fixtures.ts';

const alice = user('alice', 'devs');
const podReader = rule(['get', 'list', 'watch'], [''], ['pods']);
const everything = rule(['*'], ['*'], ['*']);

interface Case { name: string; policy: PolicySnapshot; attrs: AuthorizationAttributes; allowed: boolean; reason?: string }

const cases: Case[] = [
  {
    name: 'no bindings: no opinion, empty reason',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false, reason: '',
  },
  {
    name: 'ClusterRoleBinding grants in every namespace',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [User('alice')])] }),
    attrs: request(alice, 'list', { resource: 'pods', namespace: 'anywhere' }), allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "reader" to User "alice"',
  },
  {
    name: 'ClusterRoleBinding grants across all namespaces (no namespace)',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [User('alice')])] }),
    attrs: request(alice, 'list', { resource: 'pods' }), allowed: true,
  },
  {
    name: 'RoleBinding to a Role grants in its namespace',
    policy: snapshot({ roles: [role('a', 'reader', [podReader])], roleBindings: [roleBinding('a', 'rb', { kind: 'Role', name: 'reader' }, [User('alice')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
    reason: 'RBAC: allowed by RoleBinding "rb/a" of Role "reader" to User "alice"',
  },
  {
    name: 'RoleBinding to a ClusterRole grants in the binding namespace',
    policy: snapshot({ clusterRoles: [clusterRole('edit', [everything])], roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'edit' }, [User('alice')])] }),
    attrs: request(alice, 'delete', { apiGroup: 'apps', resource: 'deployments', namespace: 'a', name: 'd' }), allowed: true,
    reason: 'RBAC: allowed by RoleBinding "rb/a" of ClusterRole "edit" to User "alice"',
  },
  {
    name: 'adversarial: RoleBinding in namespace a never grants in namespace b',
    policy: snapshot({ clusterRoles: [clusterRole('edit', [everything])], roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'edit' }, [User('alice')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'b', name: 'p' }), allowed: false,
  },
  {
    name: 'adversarial: RoleBinding to cluster-admin cannot grant a cluster-scoped resource',
    policy: snapshot({ clusterRoles: [clusterRole('cluster-admin', [everything])], roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'cluster-admin' }, [User('alice')])] }),
    attrs: request(alice, 'create', { resource: 'namespaces' }), allowed: false,
  },
  {
    name: 'adversarial: RoleBinding cannot grant a list across all namespaces',
    policy: snapshot({ clusterRoles: [clusterRole('cluster-admin', [everything])], roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'cluster-admin' }, [User('alice')])] }),
    attrs: request(alice, 'list', { resource: 'pods' }), allowed: false,
  },
  {
    name: 'adversarial: RoleBinding cannot grant a non-resource URL',
    policy: snapshot({ clusterRoles: [clusterRole('cluster-admin', [everything, urlRule(['*'], ['*'])])], roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'cluster-admin' }, [User('alice')])] }),
    attrs: pathRequest(alice, 'get', '/metrics'), allowed: false,
  },
  {
    name: 'adversarial: Role in another namespace with the referenced name is not used',
    policy: snapshot({ roles: [role('b', 'reader', [everything])], roleBindings: [roleBinding('a', 'rb', { kind: 'Role', name: 'reader' }, [User('alice')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
    reason: 'RBAC: role.rbac.authorization.k8s.io "reader" not found',
  },
  {
    name: 'adversarial: roleRef kind Role uses the Role, not the ClusterRole of the same name',
    policy: snapshot({
      roles: [role('a', 'admin', [podReader])], clusterRoles: [clusterRole('admin', [everything])],
      roleBindings: [roleBinding('a', 'rb', { kind: 'Role', name: 'admin' }, [User('alice')])],
    }),
    attrs: request(alice, 'delete', { resource: 'secrets', namespace: 'a', name: 's' }), allowed: false,
  },
  {
    name: 'adversarial: roleRef kind ClusterRole does not fall back to a Role of that name',
    policy: snapshot({ roles: [role('a', 'admin', [everything])], roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'admin' }, [User('alice')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
    reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "admin" not found',
  },
  {
    name: 'adversarial: ClusterRoleBinding whose roleRef is a Role resolves nothing',
    policy: snapshot({
      roles: [role('a', 'r', [everything])],
      clusterRoleBindings: [{ metadata: { name: 'crb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [User('alice')] }],
    }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
    reason: 'RBAC: role.rbac.authorization.k8s.io "r" not found',
  },
  {
    name: 'unsupported roleRef kind is reported',
    policy: snapshot({ roleBindings: [roleBinding('a', 'rb', { kind: 'Foo' as 'Role', name: 'x' }, [User('alice')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
    reason: 'RBAC: unsupported role reference kind: "Foo"',
  },
  {
    name: 'several resolution errors are aggregated in brackets, duplicates dropped',
    policy: snapshot({
      clusterRoleBindings: [clusterRoleBinding('x1', 'missing', [User('alice')]), clusterRoleBinding('x2', 'missing', [User('alice')]), clusterRoleBinding('y', 'gone', [Group('devs')])],
    }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
    reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, clusterrole.rbac.authorization.k8s.io "gone" not found]',
  },
  {
    name: 'a resolution error does not stop a later binding from allowing',
    policy: snapshot({
      clusterRoles: [clusterRole('reader', [podReader])],
      clusterRoleBindings: [clusterRoleBinding('broken', 'missing', [User('alice')]), clusterRoleBinding('ok', 'reader', [User('alice')])],
    }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "ok" of ClusterRole "reader" to User "alice"',
  },
  {
    name: 'bindings for other users resolve nothing, not even errors',
    policy: snapshot({ clusterRoleBindings: [clusterRoleBinding('bob', 'missing', [User('bob')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false, reason: '',
  },
  {
    name: 'Group subject',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [User('bob'), Group('devs')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "reader" to Group "devs"',
  },
  {
    name: 'the first applying subject is the one reported',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [Group('devs'), User('alice')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "reader" to Group "devs"',
  },
  {
    name: 'group name is not a user name',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [User('devs')])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
  },
  {
    name: 'implicit system:authenticated group',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [Group('system:authenticated')])] }),
    attrs: request(user('carol'), 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
  },
  {
    name: 'system:anonymous is not system:authenticated',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [Group('system:authenticated')])] }),
    attrs: request(user('system:anonymous', 'system:unauthenticated'), 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
  },
  {
    name: 'subject apiGroup is not consulted (as in kube)',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [{ kind: 'User', apiGroup: 'wrong', name: 'alice' }])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
  },
  {
    name: 'unknown subject kind matches nobody',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [{ kind: 'user', name: 'alice' }])] }),
    attrs: request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: false,
  },
  {
    name: 'ServiceAccount subject with namespace in a ClusterRoleBinding',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [SA('bot', 'ci')])] }),
    attrs: request(user('system:serviceaccount:ci:bot'), 'list', { resource: 'pods' }), allowed: true,
    reason: 'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "reader" to ServiceAccount "bot/ci"',
  },
  {
    name: 'ServiceAccount subject without namespace in a ClusterRoleBinding matches nobody',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [SA('bot')])] }),
    attrs: request(user('system:serviceaccount:ci:bot'), 'list', { resource: 'pods', namespace: 'ci' }), allowed: false,
  },
  {
    name: 'ServiceAccount subject without namespace in a RoleBinding defaults to the binding namespace',
    policy: snapshot({ roles: [role('ci', 'reader', [podReader])], roleBindings: [roleBinding('ci', 'rb', { kind: 'Role', name: 'reader' }, [SA('bot')])] }),
    attrs: request(user('system:serviceaccount:ci:bot'), 'get', { resource: 'pods', namespace: 'ci', name: 'p' }), allowed: true,
    reason: 'RBAC: allowed by RoleBinding "rb/ci" of Role "reader" to ServiceAccount "bot/ci"',
  },
  {
    name: 'adversarial: ServiceAccount of another namespace with the same name',
    policy: snapshot({ roles: [role('ci', 'reader', [podReader])], roleBindings: [roleBinding('ci', 'rb', { kind: 'Role', name: 'reader' }, [SA('bot')])] }),
    attrs: request(user('system:serviceaccount:other:bot'), 'get', { resource: 'pods', namespace: 'ci', name: 'p' }), allowed: false,
  },
  {
    name: 'RoleBinding may name a ServiceAccount of another namespace',
    policy: snapshot({ roles: [role('a', 'reader', [podReader])], roleBindings: [roleBinding('a', 'rb', { kind: 'Role', name: 'reader' }, [SA('bot', 'ci')])] }),
    attrs: request(user('system:serviceaccount:ci:bot'), 'get', { resource: 'pods', namespace: 'a', name: 'p' }), allowed: true,
  },
  {
    name: 'a User subject spelled as a ServiceAccount user name matches it (kube compares names)',
    policy: snapshot({ clusterRoles: [clusterRole('reader', [podReader])], clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [User('system:serviceaccount:ci:bot')])] }),
    attrs: request(user('system:serviceaccount:ci:bot'), 'list', { resource: 'pods' }), allowed: true,
  },
  {
    name: 'non-resource URL through a ClusterRoleBinding',
    policy: snapshot({ clusterRoles: [clusterRole('disc', [urlRule(['get'], ['/apis/*'])])], clusterRoleBindings: [clusterRoleBinding('crb', 'disc', [User('alice')])] }),
    attrs: pathRequest(alice, 'get', '/apis/apps/v1'), allowed: true,
  },
  {
    name: 'aggregated ClusterRole is evaluated with its aggregated rules, not its stored ones',
    policy: snapshot({
      clusterRoles: [
        { metadata: { name: 'agg' }, rules: [everything], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'x/agg': 'true' } }] } },
        clusterRole('part', [podReader], { 'x/agg': 'true' }),
      ],
      clusterRoleBindings: [clusterRoleBinding('crb', 'agg', [User('alice')])],
    }),
    attrs: request(alice, 'delete', { resource: 'secrets', namespace: 'a', name: 's' }), allowed: false,
  },
];

describe('authorize', () => {
  for (const c of cases) {
    it(c.name, () => {
      const decision = authorize(c.attrs, c.policy);
      assert.equal(decision.allowed, c.allowed);
      if (c.reason !== undefined) assert.equal(decision.reason, c.reason);
      // The index and the snapshot are two doors to the same decision.
      assert.deepEqual(authorize(c.attrs, buildPolicyIndex(c.policy)), decision);
    });
  }

  it('visits ClusterRoleBindings before RoleBindings (reason names the ClusterRoleBinding)', () => {
    const policy = snapshot({
      clusterRoles: [clusterRole('reader', [podReader])],
      roleBindings: [roleBinding('a', 'rb', { kind: 'ClusterRole', name: 'reader' }, [User('alice')])],
      clusterRoleBindings: [clusterRoleBinding('crb', 'reader', [User('alice')])],
    });
    assert.match(authorize(request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), policy).reason, /^RBAC: allowed by ClusterRoleBinding "crb"/);
  });

  it('does not mutate the snapshot', () => {
    const policy = snapshot({
      clusterRoles: [{ metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{}] } }, clusterRole('part', [podReader])],
      clusterRoleBindings: [clusterRoleBinding('crb', 'agg', [User('alice')])],
    });
    const before = structuredClone(policy);
    authorize(request(alice, 'get', { resource: 'pods', namespace: 'a', name: 'p' }), policy);
    assert.deepEqual(policy, before);
  });
});
