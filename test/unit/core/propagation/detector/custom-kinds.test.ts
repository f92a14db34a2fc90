import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { customKindOf, selectedCustomKinds } from '../../../../../src/core/propagation/detector/custom-kinds.ts';
import { claimOf } from '../../../../../src/core/propagation/binding/claim.ts';
import { matchPolicy } from '../../../../../src/core/propagation/detector/index.ts';
import type { PropagationPolicy, ResourceSelector } from '../../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const ID = 'abc123';
const OTHER = 'xyz789';

function crd(group: string, kind: string, plural: string, extra: { scope?: string; versions?: Array<{ name: string; served?: boolean }>; deleting?: boolean } = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { group, scope: extra.scope ?? 'Namespaced', names: { plural, kind }, versions: extra.versions ?? [{ name: 'v1', served: true }] },
  };
}

describe('selectedCustomKinds: the tenant custom kinds its policies select', () => {
  const widgets = crd(`${ID}-example.com`, 'Widget', 'widgets');
  const gizmos = crd(`${ID}-example.com`, 'Gizmo', 'gizmos', { scope: 'Cluster' });

  it('resolves a selector in the tenant\'s spelling against its CRD, in upstream terms, with the CRD\'s scope', () => {
    const selectors: ResourceSelector[] = [{ apiVersion: 'example.com/v1', kind: 'Widget' }, { apiVersion: 'example.com/v1', kind: 'Gizmo', name: 'g' }];
    assert.deepEqual(selectedCustomKinds(ID, selectors, [widgets, gizmos]), [
      { group: `${ID}-example.com`, version: 'v1', resource: 'widgets', kind: 'Widget', clusterScoped: false },
      { group: `${ID}-example.com`, version: 'v1', resource: 'gizmos', kind: 'Gizmo', clusterScoped: true },
    ]);
  });

  it('one row per kind however many selectors name it', () => {
    const selectors: ResourceSelector[] = [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'a' }, { apiVersion: 'example.com/v1', kind: 'Widget', name: 'b' }];
    assert.equal(selectedCustomKinds(ID, selectors, [widgets]).length, 1);
  });

  const none: Array<[string, ResourceSelector[], KubeObject[]]> = [
    ['a built-in kind', [{ apiVersion: 'apps/v1', kind: 'Deployment' }], [widgets]],
    ['a Karmada kind', [{ apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding' }], [widgets]],
    ['a kind with no CRD', [{ apiVersion: 'example.com/v1', kind: 'Sprocket' }], [widgets]],
    ['a version the CRD does not serve', [{ apiVersion: 'example.com/v2', kind: 'Widget' }], [widgets]],
    ['a version the CRD no longer serves', [{ apiVersion: 'example.com/v1', kind: 'Widget' }], [crd(`${ID}-example.com`, 'Widget', 'widgets', { versions: [{ name: 'v1', served: false }] })]],
    ['a CRD being deleted', [{ apiVersion: 'example.com/v1', kind: 'Widget' }], [crd(`${ID}-example.com`, 'Widget', 'widgets', { deleting: true })]],
    // Names are tenant-relative: another tenant's CRD group never answers this tenant's selector, whatever the spelling.
    ['another tenant\'s CRD', [{ apiVersion: 'example.com/v1', kind: 'Widget' }], [crd(`${OTHER}-example.com`, 'Widget', 'widgets')]],
    ['another tenant\'s group spelled out', [{ apiVersion: `${OTHER}-example.com/v1`, kind: 'Widget' }], [crd(`${OTHER}-example.com`, 'Widget', 'widgets')]],
  ];
  for (const [what, selectors, crds] of none) {
    it(`selects nothing for ${what}`, () => assert.deepEqual(selectedCustomKinds(ID, selectors, crds), []));
  }

  it('customKindOf answers undefined for a CRD without names', () => {
    assert.equal(customKindOf({ metadata: { name: 'x' }, spec: { group: 'g' } }, 'v1'), undefined);
  });
});

describe('cluster-scoped templates and policies (Karmada\'s detector)', () => {
  const role: KubeObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } };
  const selector: ResourceSelector = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader' };
  const policy = (kind: 'PropagationPolicy' | 'ClusterPropagationPolicy', namespace?: string): PropagationPolicy => ({
    apiVersion: 'policy.karmada.io/v1alpha1', kind, metadata: { name: 'p', ...(namespace ? { namespace } : {}) },
    spec: { resourceSelectors: [selector], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
  });

  it('a PropagationPolicy never claims a cluster-scoped template (LookForMatchedPolicy needs a namespace)', () => {
    assert.equal(matchPolicy(role, [policy('PropagationPolicy', 'default'), policy('PropagationPolicy')], []), undefined);
    assert.equal(claimOf(role, [policy('PropagationPolicy', 'default')], [], undefined), undefined);
  });

  it('a Namespace is claimed by a ClusterPropagationPolicy, except Kubernetes\' and Karmada\'s own (the execution spaces among them)', () => {
    const byKind: PropagationPolicy = { ...policy('ClusterPropagationPolicy'), spec: { resourceSelectors: [{ apiVersion: 'v1', kind: 'Namespace' }] } };
    const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    assert.equal(claimOf(ns('team-a'), [], [byKind], undefined)?.source, 'ClusterPropagationPolicy');
    for (const reserved of ['kube-system', 'kube-public', 'karmada-system', 'karmada-cluster', 'karmada-es-member1']) {
      assert.equal(claimOf(ns(reserved), [], [byKind], undefined), undefined, reserved);
    }
  });

  it('a ClusterPropagationPolicy does', () => {
    const claim = claimOf(role, [], [policy('ClusterPropagationPolicy')], undefined);
    assert.equal(claim?.source, 'ClusterPropagationPolicy');
    assert.deepEqual(claim?.placement, { clusterAffinity: { clusterNames: ['member1'] } });
  });
});
