// A ClusterResourceBinding between tenant and upstream: its name and its
// resource's name are cluster-scoped (prefixed), custom kinds included, and a
// binding that names another tenant's object is never shown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const A = { id: 'aaaaaa' };
const crb = (name: string, resource: Record<string, string>): KubeObject => ({
  apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', metadata: { name }, spec: { resource },
});

describe('ClusterResourceBinding translation', () => {
  const cases: Array<[string, KubeObject, KubeObject]> = [
    ['a ClusterRole', crb('reader-clusterrole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader' }),
      crb('aaaaaa-reader-clusterrole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'aaaaaa-reader' })],
    ['a CRD', crb('gizmos.example.com-customresourcedefinition', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'gizmos.example.com' }),
      crb('aaaaaa-gizmos.example.com-customresourcedefinition', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'gizmos.aaaaaa-example.com' })],
    ['a cluster-scoped custom resource (scope unknown to the context)', crb('g1-gizmo', { apiVersion: 'example.com/v1', kind: 'Gizmo', name: 'g1' }),
      crb('aaaaaa-g1-gizmo', { apiVersion: 'aaaaaa-example.com/v1', kind: 'Gizmo', name: 'aaaaaa-g1' })],
  ];
  for (const [what, tenant, upstream] of cases) {
    it(`maps the binding of ${what} both ways`, () => {
      const up = toUpstreamObject(A, structuredClone(tenant));
      assert.equal(up.metadata.name, upstream.metadata.name);
      assert.deepEqual(up.spec, upstream.spec);
      const back = toTenantObject(A, structuredClone(up));
      assert.equal(back?.metadata.name, tenant.metadata.name);
      assert.deepEqual(back?.spec, tenant.spec);
    });
  }

  it('hides a binding named or pointing with another tenant\'s prefix', () => {
    assert.equal(toTenantObject(A, crb('bbbbbb-reader-clusterrole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'bbbbbb-reader' })), undefined);
    assert.equal(toTenantObject(A, crb('aaaaaa-reader-clusterrole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'bbbbbb-reader' })), undefined);
    assert.equal(toTenantObject(A, crb('aaaaaa-g1-gizmo', { apiVersion: 'bbbbbb-example.com/v1', kind: 'Gizmo', name: 'bbbbbb-g1' })), undefined);
  });

  it('a ResourceBinding of a namespaced custom resource keeps the name, maps the group and namespace', () => {
    const rb: KubeObject = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', metadata: { name: 'w1-widget', namespace: 'aaaaaa-default' },
      spec: { resource: { apiVersion: 'aaaaaa-example.com/v1', kind: 'Widget', namespace: 'aaaaaa-default', name: 'w1' } } };
    const view = toTenantObject(A, structuredClone(rb));
    assert.deepEqual(view?.spec, { resource: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'default', name: 'w1' } });
  });
});
