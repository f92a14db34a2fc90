import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateOverridePolicy, validatePropagationPolicy } from '../../../../../src/core/propagation/validation/index.ts';

const sel = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }];
const pp = (spec: Record<string, unknown>) => ({ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'p', namespace: 'default' }, spec });
const op = (spec: Record<string, unknown>) => ({ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name: 'o', namespace: 'default' }, spec });

describe('validatePropagationPolicy: accepted as Karmada accepts', () => {
  const ok: Array<[string, Record<string, unknown>]> = [
    ['quick start', { resourceSelectors: sel, placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } } }],
    ['selects nothing / names a missing cluster', { resourceSelectors: [{ apiVersion: 'v1', kind: 'Nope', name: 'x' }], placement: { clusterAffinity: { clusterNames: ['ghost'] } } }],
    ['divided weighted', { resourceSelectors: sel, placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: {
      staticWeightList: [{ targetCluster: { clusterNames: ['a'] }, weight: 1 }], dynamicWeight: 'AvailableReplicas' } } } }],
    ['spread by region with cluster', { resourceSelectors: sel, placement: { spreadConstraints: [{ spreadByField: 'region', maxGroups: 2, minGroups: 1 }, { spreadByField: 'cluster', maxGroups: 3, minGroups: 3 }] } }],
    ['cluster affinities', { resourceSelectors: sel, placement: { clusterAffinities: [{ affinityName: 'primary', clusterNames: ['a'] }, { affinityName: 'backup', clusterNames: ['b'] }] } }],
  ];
  for (const [name, spec] of ok) it(name, () => assert.equal(validatePropagationPolicy(pp(spec)), undefined));
});

describe('validatePropagationPolicy: refused', () => {
  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['no selectors', {}, 'spec.resourceSelectors', /Required value/],
    ['empty selectors', { resourceSelectors: [] }, 'spec.resourceSelectors', /should have at least 1 items/],
    ['selector without kind', { resourceSelectors: [{ apiVersion: 'v1' }] }, 'spec.resourceSelectors[0].kind', /Required value/],
    ['affinity and affinities', { resourceSelectors: sel, placement: { clusterAffinity: {}, clusterAffinities: [{ affinityName: 'a' }] } }, 'spec.placement', /clusterAffinities cannot co-exist with clusterAffinity/],
    ['duplicate affinity name', { resourceSelectors: sel, placement: { clusterAffinities: [{ affinityName: 'a' }, { affinityName: 'a' }] } }, 'spec.placement.clusterAffinities', /unique name/],
    ['bad affinity name', { resourceSelectors: sel, placement: { clusterAffinities: [{ affinityName: 'a b' }] } }, 'spec.placement.clusterAffinities[0]', /name part must consist/],
    ['field selector key', { resourceSelectors: sel, placement: { clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'os', operator: 'In', values: ['x'] }] } } } }, 'spec.placement.clusterAffinity.fieldSelector', /unsupported key "os", must be provider, region, or zone/],
    ['field selector operator', { resourceSelectors: sel, placement: { clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'Exists' }] } } } }, 'spec.placement.clusterAffinity.fieldSelector', /unsupported operator "Exists", must be In or NotIn/],
    ['field and label spread', { resourceSelectors: sel, placement: { spreadConstraints: [{ spreadByField: 'cluster', spreadByLabel: 'x' }] } }, 'spec.placement.spreadConstraints[0]', /spreadByLabel should not co-exist with spreadByField/],
    ['max below min', { resourceSelectors: sel, placement: { spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1, minGroups: 2 }] } }, 'spec.placement.spreadConstraints[0]', /maxGroups lower than minGroups/],
    ['region without cluster', { resourceSelectors: sel, placement: { spreadConstraints: [{ spreadByField: 'region', maxGroups: 1 }] } }, 'spec.placement.spreadConstraints', /the cluster spread constraint must be enabled/],
    ['duplicate field', { resourceSelectors: sel, placement: { spreadConstraints: [{ spreadByField: 'cluster' }, { spreadByField: 'cluster' }] } }, 'spec.placement.spreadConstraints', /multiple cluster spread constraints are not allowed/],
    ['weight 0', { resourceSelectors: sel, placement: { replicaScheduling: { replicaSchedulingType: 'Divided', weightPreference: { staticWeightList: [{ targetCluster: {}, weight: 0 }] } } } },
      'spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight', /greater than or equal to 1/],
    ['scheduling type enum', { resourceSelectors: sel, placement: { replicaScheduling: { replicaSchedulingType: 'Split' } } }, 'spec.placement.replicaScheduling.replicaSchedulingType', /Unsupported value: "Split": supported values: "Duplicated", "Divided"/],
    ['application failover without propagateDeps', { resourceSelectors: sel, failover: { application: { decisionConditions: { tolerationSeconds: 10 } } } }, 'spec.propagateDeps', /application failover is set, propagateDeps must be true/],
    ['suspension both ways', { resourceSelectors: sel, suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: ['a'] } } }, 'spec.suspension.suspension', /cannot co-exist/],
  ];
  for (const [name, spec, field, message] of bad) {
    it(name, () => {
      const err = validatePropagationPolicy(pp(spec));
      assert.ok(err, 'expected a 422');
      assert.equal(err.code, 422);
      assert.match(err.message, /^PropagationPolicy\.policy\.karmada\.io "p" is invalid: /);
      const cause = err.details?.causes?.find((c) => c.field === field);
      assert.ok(cause, `no cause for ${field}: ${JSON.stringify(err.details?.causes)}`);
      assert.match(cause.message ?? '', message);
    });
  }
  it('a ClusterPropagationPolicy names its own kind', () => {
    const err = validatePropagationPolicy({ kind: 'ClusterPropagationPolicy', metadata: { name: 'c' }, spec: {} });
    assert.match(err?.message ?? '', /^ClusterPropagationPolicy\.policy\.karmada\.io "c" is invalid/);
  });
});

describe('validateOverridePolicy', () => {
  const ok: Array<[string, Record<string, unknown>]> = [
    ['quick start image override', { resourceSelectors: sel, overrideRules: [{ targetCluster: { clusterNames: ['member1'] }, overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'test' }] } }] }],
    ['no selectors at all (matches everything)', { overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { 'app.kubernetes.io/name': 'x' } }] } }] }],
    ['plaintext path without slash is accepted, as in Karmada', { overrideRules: [{ overriders: { plaintext: [{ path: 'spec/replicas', operator: 'replace', value: 1 }] } }] }],
    ['deprecated form', { resourceSelectors: sel, targetCluster: { clusterNames: ['a'] }, overriders: { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 1 }] } }],
    ['field overrider yaml', { overrideRules: [{ overriders: { fieldOverrider: [{ fieldPath: '/data/config.yaml', yaml: [{ subPath: '/a', operator: 'replace', value: 1 }, { subPath: '/b', operator: 'remove' }] }] } }] }],
  ];
  for (const [name, spec] of ok) it(`accepts ${name}`, () => assert.equal(validateOverridePolicy(op(spec)), undefined));

  const r = 'spec.overrideRules[0].overriders';
  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['rules with targetCluster', { targetCluster: {}, overrideRules: [] }, 'spec.targetCluster', /overrideRules and targetCluster can't co-exist/],
    ['rules with overriders', { overriders: { plaintext: [{ path: '/a', operator: 'remove' }] }, overrideRules: [] }, 'spec.overriders', /overrideRules and overriders can't co-exist/],
    ['image component', { overrideRules: [{ overriders: { imageOverrider: [{ component: 'Digest', operator: 'replace', value: 'x' }] } }] }, `${r}.imageOverrider[0].component`, /Unsupported value: "Digest"/],
    ['predicate path', { overrideRules: [{ overriders: { imageOverrider: [{ predicate: { path: 'spec/x' }, component: 'Tag', operator: 'replace', value: 'x' }] } }] }, `${r}.imageOverrider[0].predicate.path`, /JSON pointer must be empty or start with a "\/$/],
    ['label key', { overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { 'bad key': 'v' } }] } }] }, `${r}.labelsOverrider[0].value`, /Invalid value: "bad key"/],
    ['label value', { overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { k: 'bad value' } }] } }] }, `${r}.labelsOverrider[0].value`, /Invalid value: "bad value"/],
    ['json and yaml', { overrideRules: [{ overriders: { fieldOverrider: [{ fieldPath: '/data/x', json: [{ subPath: '/a', operator: 'remove' }], yaml: [{ subPath: '/a', operator: 'remove' }] }] } }] }, `${r}.fieldOverrider[0]`, /Only one is allowed/],
    ['fieldPath', { overrideRules: [{ overriders: { fieldOverrider: [{ fieldPath: 'data', json: [] }] } }] }, `${r}.fieldOverrider[0].fieldPath`, /JSON pointer must be empty/],
    ['subPath value required', { overrideRules: [{ overriders: { fieldOverrider: [{ fieldPath: '/data/x', json: [{ subPath: '/a', operator: 'add' }] }] } }] }, `${r}.fieldOverrider[0].json[0].value`, /value is required for add or replace operation/],
    ['subPath value forbidden', { overrideRules: [{ overriders: { fieldOverrider: [{ fieldPath: '/data/x', yaml: [{ subPath: '/a', operator: 'remove', value: 1 }] }] } }] }, `${r}.fieldOverrider[0].yaml[0].value`, /value is not allowed for remove operation/],
    ['plaintext operator', { overrideRules: [{ overriders: { plaintext: [{ path: '/a', operator: 'move' }] } }] }, `${r}.plaintext[0].operator`, /Unsupported value: "move"/],
    ['rule target field selector', { overrideRules: [{ targetCluster: { fieldSelector: { matchExpressions: [{ key: 'name', operator: 'In' }] } }, overriders: {} }] }, 'spec.overrideRules[0].targetCluster.fieldSelector', /unsupported key/],
    ['env without name', { overrideRules: [{ overriders: { envOverrider: [{ containerName: 'c', operator: 'add', value: [{ value: 'x' }] }] } }] }, `${r}.envOverrider[0].value[0].name`, /Required value/],
  ];
  for (const [name, spec, field, message] of bad) {
    it(`refuses ${name}`, () => {
      const err = validateOverridePolicy(op(spec));
      assert.ok(err, 'expected a 422');
      assert.equal(err.code, 422);
      const cause = err.details?.causes?.find((c) => c.field === field);
      assert.ok(cause, `no cause for ${field}: ${JSON.stringify(err.details?.causes)}`);
      assert.match(cause.message ?? '', message);
    });
  }
});
