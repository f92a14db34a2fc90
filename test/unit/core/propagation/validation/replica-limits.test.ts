// Validation of Warren's placement.replicaScheduling.clusterReplicaLimits (422 via the policy validators).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validatePropagationPolicy } from '../../../../../src/core/propagation/validation/index.ts';

const sel = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }];
const pp = (limits: unknown, kind = 'PropagationPolicy') => ({ apiVersion: 'policy.karmada.io/v1alpha1', kind, metadata: { name: 'p', namespace: 'default' },
  spec: { resourceSelectors: sel, placement: { replicaScheduling: { replicaSchedulingType: 'Divided', clusterReplicaLimits: limits } } } });
const at = 'spec.placement.replicaScheduling.clusterReplicaLimits';

describe('clusterReplicaLimits: accepted', () => {
  const ok: Array<[string, unknown]> = [
    ['max only', [{ targetCluster: { clusterNames: ['member1'] }, maxReplicas: 2 }]],
    ['min only, and 0s', [{ targetCluster: {}, minReplicas: 1 }, { targetCluster: { clusterNames: ['b'] }, minReplicas: 0, maxReplicas: 0 }]],
    ['min equal to max', [{ targetCluster: { labelSelector: { matchLabels: { env: 'prod' } } }, minReplicas: 3, maxReplicas: 3 }]],
    // Entries that contradict each other on one cluster are a scheduling failure, not a validation error.
    ['contradicting entries', [{ targetCluster: {}, minReplicas: 3 }, { targetCluster: {}, maxReplicas: 1 }]],
  ];
  for (const [name, limits] of ok) it(name, () => assert.equal(validatePropagationPolicy(pp(limits)), undefined));
});

describe('clusterReplicaLimits: refused with 422', () => {
  const bad: Array<[string, unknown, string, RegExp]> = [
    ['min above max', [{ targetCluster: {}, minReplicas: 3, maxReplicas: 2 }], `${at}[0]`, /minReplicas must not be greater than maxReplicas/],
    ['negative max', [{ targetCluster: {}, maxReplicas: -1 }], `${at}[0].maxReplicas`, /Invalid value: -1: .*greater than or equal to 0/],
    ['negative min', [{ targetCluster: {}, minReplicas: -2 }], `${at}[0].minReplicas`, /greater than or equal to 0/],
    ['not an integer', [{ targetCluster: {}, minReplicas: 1.5 }], `${at}[0].minReplicas`, /must be of type integer/],
    ['a string', [{ targetCluster: {}, maxReplicas: '2' }], `${at}[0].maxReplicas`, /must be of type integer/],
    ['no targetCluster', [{ maxReplicas: 2 }], `${at}[0].targetCluster`, /Required value/],
    ['bad field selector', [{ targetCluster: { fieldSelector: { matchExpressions: [{ key: 'os', operator: 'In', values: ['x'] }] } }, maxReplicas: 2 }],
      `${at}[0].targetCluster.fieldSelector`, /unsupported key "os"/],
    ['not a list', { maxReplicas: 2 }, at, /must be of type array/],
  ];
  for (const [name, limits, field, message] of bad) {
    it(name, () => {
      const err = validatePropagationPolicy(pp(limits));
      assert.ok(err, 'expected a 422');
      assert.equal(err.code, 422);
      const cause = err.details?.causes?.find((c) => c.field === field);
      assert.ok(cause, `no cause for ${field}: ${JSON.stringify(err.details?.causes)}`);
      assert.match(cause.message ?? '', message);
    });
  }
  it('ClusterPropagationPolicy too', () => {
    const err = validatePropagationPolicy(pp([{ targetCluster: {}, minReplicas: 2, maxReplicas: 1 }], 'ClusterPropagationPolicy'));
    assert.equal(err?.code, 422);
  });
});
