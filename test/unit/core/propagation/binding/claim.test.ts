// claimOf: which policy (or the tenant's default placement) claims a template.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { claimOf, isSkippedNamespace } from '../../../../../src/core/propagation/binding/claim.ts';
import type { Placement, PropagationPolicy, ResourceSelector } from '../../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const deploy = (name: string, namespace = 'apps', labels: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace, labels }, spec: { replicas: 2 } });

const policy = (name: string, selectors: ResourceSelector[], extra: Partial<PropagationPolicy['spec']> = {}, namespace?: string): PropagationPolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind: namespace ? 'PropagationPolicy' : 'ClusterPropagationPolicy',
  metadata: namespace ? { name, namespace } : { name },
  spec: { resourceSelectors: selectors, placement: { clusterAffinity: { clusterNames: [name] } }, ...extra },
});

const ALL_DEPLOYMENTS: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment' };
const DEFAULT: Placement = { clusterAffinity: { clusterNames: ['default-cluster'] } };

describe('claimOf', () => {
  it('a namespaced PropagationPolicy beats a ClusterPropagationPolicy, even a higher-priority, more specific one', () => {
    const pp = policy('pp', [ALL_DEPLOYMENTS], {}, 'apps');
    const cpp = policy('cpp', [{ ...ALL_DEPLOYMENTS, name: 'web' }], { priority: 100 });
    const claim = claimOf(deploy('web'), [pp], [cpp], DEFAULT);
    assert.equal(claim?.source, 'PropagationPolicy');
    assert.equal(claim.policyName, 'pp');
    assert.deepEqual(claim.placement, pp.spec.placement);
  });

  it('a PropagationPolicy of another namespace does not claim; the ClusterPropagationPolicy does', () => {
    const claim = claimOf(deploy('web'), [policy('elsewhere', [ALL_DEPLOYMENTS], {}, 'other')], [policy('cpp', [ALL_DEPLOYMENTS])], DEFAULT);
    assert.equal(claim?.source, 'ClusterPropagationPolicy');
    assert.equal(claim.policyName, 'cpp');
  });

  it('copies only the spec fields the policy sets', () => {
    const pp = policy('pp', [ALL_DEPLOYMENTS], { propagateDeps: true, conflictResolution: 'Overwrite', failover: { application: { decisionConditions: { tolerationSeconds: 30 } } } }, 'apps');
    const claim = claimOf(deploy('web'), [pp], [], undefined);
    assert.deepEqual(claim?.spec, { propagateDeps: true, conflictResolution: 'Overwrite', failover: { application: { decisionConditions: { tolerationSeconds: 30 } } } });
    assert.ok(!('suspension' in (claim?.spec ?? {})));
  });

  it('a policy without placement claims with an empty placement', () => {
    const pp: PropagationPolicy = { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'bare', namespace: 'apps' }, spec: { resourceSelectors: [ALL_DEPLOYMENTS] } };
    assert.deepEqual(claimOf(deploy('web'), [pp], [], DEFAULT)?.placement, {});
  });

  const table: Array<{ name: string; template: KubeObject; policies: PropagationPolicy[]; def: Placement | undefined; want: string | undefined }> = [
    { name: 'default placement when nothing matches', template: deploy('web'), policies: [policy('pp', [{ apiVersion: 'v1', kind: 'Service' }], {}, 'apps')], def: DEFAULT, want: 'DefaultPlacement' },
    { name: 'nothing without a default placement', template: deploy('web'), policies: [], def: undefined, want: undefined },
    { name: 'never the default for kube-root-ca.crt', template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace: 'apps' } }, policies: [], def: DEFAULT, want: undefined },
    { name: 'never the default for the default ServiceAccount', template: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'apps' } }, policies: [], def: DEFAULT, want: undefined },
    { name: 'the default for another ConfigMap', template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'apps' } }, policies: [], def: DEFAULT, want: 'DefaultPlacement' },
    { name: 'a policy may still claim kube-root-ca.crt explicitly', template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace: 'apps' } }, policies: [policy('pp', [{ apiVersion: 'v1', kind: 'ConfigMap' }], {}, 'apps')], def: DEFAULT, want: 'PropagationPolicy' },
    { name: 'nothing in kube-system, even with a matching policy', template: deploy('web', 'kube-system'), policies: [policy('pp', [ALL_DEPLOYMENTS], {}, 'kube-system')], def: DEFAULT, want: undefined },
    { name: 'nothing in karmada-es-member1', template: deploy('web', 'karmada-es-member1'), policies: [], def: DEFAULT, want: undefined },
    { name: 'a cluster-scoped template takes the default', template: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } }, policies: [], def: DEFAULT, want: 'DefaultPlacement' },
  ];
  for (const t of table) {
    it(t.name, () => {
      const claim = claimOf(t.template, t.policies, [], t.def);
      assert.equal(claim?.source, t.want);
      if (t.want === 'DefaultPlacement') {
        assert.deepEqual(claim?.placement, DEFAULT);
        assert.deepEqual(claim?.spec, {});
        assert.equal(claim?.policyName, undefined);
      }
    });
  }

  it('property: a namespace policy selecting the template always wins over any cluster policies and the default', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ name: fc.stringMatching(/^[a-z]{1,6}$/), priority: fc.integer({ min: -5, max: 5 }), named: fc.boolean() }), { maxLength: 5 }),
      fc.integer({ min: -5, max: 5 }),
      (cluster, priority) => {
        const cpps = cluster.map((c) => policy(c.name, [{ ...ALL_DEPLOYMENTS, ...(c.named ? { name: 'web' } : {}) }], { priority: c.priority }));
        const pp = policy('mine', [ALL_DEPLOYMENTS], { priority }, 'apps');
        const claim = claimOf(deploy('web'), [pp], cpps, DEFAULT);
        return claim?.source === 'PropagationPolicy' && claim.policyName === 'mine';
      },
    ));
  });
});

describe('isSkippedNamespace', () => {
  const cases: Array<[string, boolean]> = [
    ['kube-system', true], ['kube-public', true], ['kube-node-lease', true], ['kube-flannel', true],
    ['karmada-system', true], ['karmada-cluster', true], ['karmada-es-member1', true],
    ['default', false], ['apps', false], ['karmada-apps', false], ['my-kube-system', false], ['kubernetes', false],
  ];
  for (const [ns, skipped] of cases) it(`${ns} → ${skipped}`, () => assert.equal(isSkippedNamespace(ns), skipped));
});
