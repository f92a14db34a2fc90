// judgeBinding: the engine acts on a binding only when everything it names is
// its own tenant's (ADR 19). Table of forged bindings, each with its reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judgeBinding, type RowScope } from '../../../../../src/core/propagation/trust/binding-trust.ts';
import type { ResourceBinding } from '../../../../../src/core/propagation/karmada-types.ts';

const A = 'aaaaaa';
const CONFIGMAP: RowScope = { group: '', kind: 'ConfigMap' };
const NAMESPACE: RowScope = { group: '', kind: 'Namespace', clusterScoped: true };
const CLUSTER_ROLE: RowScope = { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', clusterScoped: true };
const CRD: RowScope = { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', clusterScoped: true };
const OWN_CUSTOM: RowScope = { group: `${A}-a.com`, kind: 'Foo', custom: true };
const OTHER_CUSTOM: RowScope = { group: 'bbbbbb-a.com', kind: 'Foo', custom: true };

function binding(meta: { namespace?: string; name: string; tenant?: string }, resource: { kind: string; name: string; namespace?: string }): ResourceBinding {
  return {
    apiVersion: 'work.karmada.io/v1alpha2', kind: meta.namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: { name: meta.name, ...(meta.namespace ? { namespace: meta.namespace } : {}), uid: 'u1', ...(meta.tenant ? { labels: { 'tenancy.warren.dev/tenant': meta.tenant } } : {}) },
    spec: { resource: { apiVersion: 'v1', ...resource } },
  };
}

describe('judgeBinding', () => {
  it('accepts what the engine itself writes', () => {
    const rb = judgeBinding(A, binding({ namespace: `${A}-dev`, name: 'web-configmap', tenant: A }, { kind: 'ConfigMap', name: 'web', namespace: `${A}-dev` }), CONFIGMAP);
    assert.deepEqual(rb, { ok: true, address: { namespace: `${A}-dev`, name: 'web' }, tenantName: 'web' });
    const crb = judgeBinding(A, binding({ name: `${A}-reader-clusterrole`, tenant: A }, { kind: 'ClusterRole', name: `${A}-reader` }), CLUSTER_ROLE);
    assert.deepEqual(crb, { ok: true, address: { namespace: '', name: `${A}-reader` }, tenantName: 'reader' });
    const crd = judgeBinding(A, binding({ name: `${A}-foos.a.com-customresourcedefinition`, tenant: A }, { kind: 'CustomResourceDefinition', name: `foos.${A}-a.com` }), CRD);
    assert.deepEqual(crd, { ok: true, address: { namespace: '', name: `foos.${A}-a.com` }, tenantName: 'foos.a.com' });
    assert.equal(judgeBinding(A, binding({ namespace: `${A}-dev`, name: 'x-foo', tenant: A }, { kind: 'Foo', name: 'x' }), OWN_CUSTOM).ok, true);
  });

  const refused: Array<[string, ResourceBinding, RowScope, RegExp]> = [
    ['break 1: a ClusterResourceBinding re-pointed at another tenant\'s namespace',
      binding({ name: `${A}-x-namespace`, tenant: A }, { kind: 'Namespace', name: 'bbbbbb-prod' }), NAMESPACE, /not the tenant's/],
    ['a ClusterResourceBinding naming an unprefixed namespace (kube-system)',
      binding({ name: `${A}-x`, tenant: A }, { kind: 'Namespace', name: 'kube-system' }), NAMESPACE, /not the tenant's/],
    ['a ResourceBinding naming a cluster-scoped kind (its namespace would be ignored)',
      binding({ namespace: `${A}-dev`, name: 'x', tenant: A }, { kind: 'Namespace', name: 'bbbbbb-prod' }), NAMESPACE, /cannot name the cluster-scoped kind/],
    ['a ClusterResourceBinding naming a namespaced kind',
      binding({ name: `${A}-x`, tenant: A }, { kind: 'ConfigMap', name: 'web', namespace: 'bbbbbb-dev' }), CONFIGMAP, /cannot name the namespaced kind/],
    ['spec.resource.namespace elsewhere than the binding',
      binding({ namespace: `${A}-dev`, name: 'x', tenant: A }, { kind: 'ConfigMap', name: 'web', namespace: 'bbbbbb-dev' }), CONFIGMAP, /another namespace/],
    ['a binding in another tenant\'s namespace',
      binding({ namespace: 'bbbbbb-dev', name: 'x', tenant: A }, { kind: 'ConfigMap', name: 'web' }), CONFIGMAP, /not in one of the tenant's namespaces/],
    ['a ClusterResourceBinding named as another tenant\'s',
      binding({ name: 'bbbbbb-x', tenant: A }, { kind: 'ClusterRole', name: `${A}-reader` }), CLUSTER_ROLE, /name is not the tenant's/],
    ['a binding without the tenant label',
      binding({ namespace: `${A}-dev`, name: 'x' }, { kind: 'ConfigMap', name: 'web' }), CONFIGMAP, /not labelled/],
    ['a binding labelled as another tenant\'s',
      binding({ namespace: `${A}-dev`, name: 'x', tenant: 'bbbbbb' }, { kind: 'ConfigMap', name: 'web' }), CONFIGMAP, /not labelled/],
    ['another tenant\'s CRD',
      binding({ name: `${A}-x`, tenant: A }, { kind: 'CustomResourceDefinition', name: 'foos.bbbbbb-a.com' }), CRD, /not the tenant's/],
    ['another tenant\'s custom kind',
      binding({ namespace: `${A}-dev`, name: 'x', tenant: A }, { kind: 'Foo', name: 'x' }), OTHER_CUSTOM, /another tenant/],
    ['a path-like name', binding({ namespace: `${A}-dev`, name: 'x', tenant: A }, { kind: 'ConfigMap', name: '../../secrets/y' }), CONFIGMAP, /names no object/],
    ['a dot-dot name', binding({ namespace: `${A}-dev`, name: 'x', tenant: A }, { kind: 'ConfigMap', name: '..' }), CONFIGMAP, /names no object/],
    ['the bare prefix as a namespace name', binding({ name: `${A}-x`, tenant: A }, { kind: 'Namespace', name: `${A}-` }), NAMESPACE, /names no object|not the tenant's/],
  ];
  for (const [name, b, row, why] of refused) {
    it(`refuses ${name}`, () => {
      const verdict = judgeBinding(A, b, row);
      assert.equal(verdict.ok, false);
      if (!verdict.ok) assert.match(verdict.reason, why);
    });
  }

  it('refuses a binding with no spec.resource at all (a body that omitted it)', () => {
    const b = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', metadata: { name: 'x', namespace: `${A}-dev`, labels: { 'tenancy.warren.dev/tenant': A } } } as unknown as ResourceBinding;
    assert.equal(judgeBinding(A, b, CONFIGMAP).ok, false);
  });
});
