import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authorize, buildPolicyIndex, defaultClusterRoleBindings, defaultClusterRoles } from '../../../../src/core/rbac/index.ts';
import type { AuthorizationAttributes, ClusterRole } from '../../../../src/core/rbac/index.ts';
import { clusterRole, pathRequest, request, roleBinding, rule, snapshot, User, user } from './rbac-fixtures.ts';

const byName = (name: string): ClusterRole => {
  const found = defaultClusterRoles().find((r) => r.metadata.name === name);
  assert.ok(found, name);
  return found;
};

describe('defaultClusterRoles', () => {
  it('has kube\'s names', () => {
    assert.deepEqual(defaultClusterRoles().map((r) => r.metadata.name).sort(), [
      'admin', 'cluster-admin', 'edit', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view',
      'system:basic-user', 'system:discovery', 'system:public-info-viewer', 'view',
    ]);
  });

  it('admin, edit and view are aggregated as kube renders them: edit = to-edit + view, admin = edit + to-admin', () => {
    const view = byName('view').rules ?? [];
    const edit = byName('edit').rules ?? [];
    const admin = byName('admin').rules ?? [];
    assert.deepEqual(view, byName('system:aggregate-to-view').rules);
    assert.deepEqual(edit, [...(byName('system:aggregate-to-edit').rules ?? []), ...view]);
    assert.deepEqual(admin, [...edit, ...(byName('system:aggregate-to-admin').rules ?? [])]);
    assert.deepEqual([view.length, edit.length, admin.length], [10, 23, 25]);
    assert.deepEqual(byName('admin').aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
  });

  it('returns fresh objects each call', () => {
    const first = defaultClusterRoles();
    first[0]?.rules?.splice(0);
    assert.notEqual(defaultClusterRoles()[0]?.rules?.length, 0);
  });
});

describe('default roles bound in a namespace', () => {
  const inNs = (verb: string, apiGroup: string, resource: string, subresource = '', name = ''): AuthorizationAttributes =>
    request(user('u'), verb, { apiGroup, resource, subresource, name, namespace: 'ns' });
  const policyFor = (roleName: string) => buildPolicyIndex(snapshot({
    clusterRoles: defaultClusterRoles(),
    roleBindings: [roleBinding('ns', 'b', { kind: 'ClusterRole', name: roleName }, [User('u')])],
  }));
  const cases: { role: string; attrs: AuthorizationAttributes; allowed: boolean }[] = [
    { role: 'view', attrs: inNs('list', '', 'pods'), allowed: true },
    { role: 'view', attrs: inNs('get', '', 'pods', 'log', 'p'), allowed: true },
    { role: 'view', attrs: inNs('watch', 'apps', 'deployments'), allowed: true },
    { role: 'view', attrs: inNs('get', '', 'secrets', '', 's'), allowed: false },
    { role: 'view', attrs: inNs('create', '', 'pods'), allowed: false },
    { role: 'view', attrs: inNs('get', 'rbac.authorization.k8s.io', 'roles', '', 'r'), allowed: false },
    { role: 'edit', attrs: inNs('create', 'apps', 'deployments'), allowed: true },
    { role: 'edit', attrs: inNs('get', '', 'secrets', '', 's'), allowed: true },
    { role: 'edit', attrs: inNs('create', '', 'pods', 'exec', 'p'), allowed: true },
    { role: 'edit', attrs: inNs('list', '', 'pods'), allowed: true },
    { role: 'edit', attrs: inNs('create', 'rbac.authorization.k8s.io', 'rolebindings'), allowed: false },
    { role: 'edit', attrs: inNs('update', '', 'resourcequotas', '', 'q'), allowed: false },
    { role: 'admin', attrs: inNs('create', 'rbac.authorization.k8s.io', 'rolebindings'), allowed: true },
    { role: 'admin', attrs: inNs('create', 'authorization.k8s.io', 'localsubjectaccessreviews'), allowed: true },
    { role: 'admin', attrs: inNs('delete', 'batch', 'jobs', '', 'j'), allowed: true },
    { role: 'admin', attrs: inNs('update', '', 'resourcequotas', '', 'q'), allowed: false },
    { role: 'cluster-admin', attrs: inNs('escalate', 'rbac.authorization.k8s.io', 'roles', '', 'r'), allowed: true },
    { role: 'cluster-admin', attrs: request(user('u'), 'list', { resource: 'nodes' }), allowed: false },
  ];
  for (const c of cases) {
    const a = c.attrs;
    it(`${c.role}: ${a.verb} ${a.apiGroup ? `${a.apiGroup}/` : ''}${a.resource}${a.subresource ? `/${a.subresource}` : ''}${a.namespace ? '' : ' (cluster scope)'} → ${c.allowed}`, () => {
      assert.equal(authorize(c.attrs, policyFor(c.role)).allowed, c.allowed);
    });
  }

  it('a tenant CRD role labelled aggregate-to-view joins view, edit and admin', () => {
    const widgets = clusterRole('widgets-view', [rule(['get'], ['example.com'], ['widgets'])], { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    for (const roleName of ['view', 'edit', 'admin']) {
      const index = buildPolicyIndex(snapshot({
        clusterRoles: [...defaultClusterRoles(), widgets],
        roleBindings: [roleBinding('ns', 'b', { kind: 'ClusterRole', name: roleName }, [User('u')])],
      }));
      assert.equal(authorize(inNs('get', 'example.com', 'widgets', '', 'w'), index).allowed, true, roleName);
    }
  });
});

describe('defaultClusterRoleBindings', () => {
  const index = buildPolicyIndex(snapshot({ clusterRoles: defaultClusterRoles(), clusterRoleBindings: defaultClusterRoleBindings() }));
  const nobody = user('new-user');
  const cases: { name: string; attrs: AuthorizationAttributes; allowed: boolean }[] = [
    { name: 'discovery /api', attrs: pathRequest(nobody, 'get', '/api'), allowed: true },
    { name: 'discovery /apis/apps/v1', attrs: pathRequest(nobody, 'get', '/apis/apps/v1'), allowed: true },
    { name: 'openapi v3', attrs: pathRequest(nobody, 'get', '/openapi/v3'), allowed: true },
    { name: 'version', attrs: pathRequest(nobody, 'get', '/version'), allowed: true },
    { name: 'not /metrics', attrs: pathRequest(nobody, 'get', '/metrics'), allowed: false },
    { name: 'not post to /api', attrs: pathRequest(nobody, 'post', '/api'), allowed: false },
    { name: 'create SelfSubjectAccessReview', attrs: request(nobody, 'create', { apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }), allowed: true },
    { name: 'create SelfSubjectRulesReview', attrs: request(nobody, 'create', { apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' }), allowed: true },
    { name: 'create SelfSubjectReview (whoami)', attrs: request(nobody, 'create', { apiGroup: 'authentication.k8s.io', resource: 'selfsubjectreviews' }), allowed: true },
    { name: 'not SubjectAccessReview', attrs: request(nobody, 'create', { apiGroup: 'authorization.k8s.io', resource: 'subjectaccessreviews' }), allowed: false },
    { name: 'no objects', attrs: request(nobody, 'list', { resource: 'pods', namespace: 'ns' }), allowed: false },
    { name: 'anonymous: healthz only', attrs: pathRequest(user('system:anonymous', 'system:unauthenticated'), 'get', '/healthz'), allowed: true },
    { name: 'anonymous: no discovery', attrs: pathRequest(user('system:anonymous', 'system:unauthenticated'), 'get', '/api'), allowed: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(authorize(c.attrs, index).allowed, c.allowed));

  it('binds nothing to system:masters', () => {
    assert.equal(defaultClusterRoleBindings().some((b) => (b.subjects ?? []).some((s) => s.name === 'system:masters')), false);
  });
});
