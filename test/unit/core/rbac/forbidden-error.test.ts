import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenError } from '../../../../src/core/rbac/index.ts';
import { pathRequest, request, user } from './rbac-fixtures.ts';

const u = user('alice');

// Messages as kube-apiserver's responsewriters.Forbidden and errors.NewForbidden write them.
describe('forbiddenError', () => {
  const cases = [
    {
      name: 'named object in a namespace, core group',
      attrs: request(u, 'get', { resource: 'pods', namespace: 'ns', name: 'p' }), reason: '',
      message: 'pods "p" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns"',
      details: { name: 'p', kind: 'pods' },
    },
    {
      name: 'list in a namespace, named group',
      attrs: request(u, 'list', { apiGroup: 'apps', resource: 'deployments', namespace: 'ns' }), reason: '',
      message: 'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "ns"',
      details: { group: 'apps', kind: 'deployments' },
    },
    {
      name: 'subresource is named in the message only',
      attrs: request(u, 'get', { resource: 'pods', subresource: 'log', namespace: 'ns', name: 'p' }), reason: '',
      message: 'pods "p" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "ns"',
      details: { name: 'p', kind: 'pods' },
    },
    {
      name: 'cluster scope',
      attrs: request(u, 'list', { resource: 'namespaces' }), reason: '',
      message: 'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope',
      details: { kind: 'namespaces' },
    },
    {
      name: 'with an authorizer reason',
      attrs: request(u, 'get', { resource: 'secrets', namespace: 'ns', name: 's' }), reason: 'RBAC: role.rbac.authorization.k8s.io "r" not found',
      message: 'secrets "s" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "ns": RBAC: role.rbac.authorization.k8s.io "r" not found',
      details: { name: 's', kind: 'secrets' },
    },
    {
      name: 'non-resource path',
      attrs: pathRequest(u, 'get', '/metrics'), reason: '',
      message: 'forbidden: User "alice" cannot get path "/metrics"',
      details: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const status = forbiddenError(c.attrs, c.reason).toStatus();
      assert.equal(status.code, 403);
      assert.equal(status.reason, 'Forbidden');
      assert.equal(status.message, c.message);
      assert.deepEqual(status.details, c.details);
    });
  }
});
