import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchPolicy, selectorPriority } from '../../../../../src/core/propagation/detector/index.ts';
import type { PropagationPolicy, ResourceSelector } from '../../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const deploy: KubeObject = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
};

function pp(name: string, selectors: ResourceSelector[], extra: { priority?: number; namespace?: string; deleting?: boolean } = {}): PropagationPolicy {
  const metadata: PropagationPolicy['metadata'] = { name };
  if (extra.namespace !== undefined) metadata.namespace = extra.namespace;
  if (extra.deleting) metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
  const spec: PropagationPolicy['spec'] = { resourceSelectors: selectors };
  if (extra.priority !== undefined) spec.priority = extra.priority;
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata, spec };
}

const byName: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' };
const byLabel: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'nginx' } } };
const byKind: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment' };

describe('selectorPriority', () => {
  const cases: Array<[string, ResourceSelector, number]> = [
    ['name match', byName, 3],
    ['label match', byLabel, 2],
    ['kind only', byKind, 1],
    ['other name', { ...byName, name: 'x' }, 0],
    ['name wins over a failing selector', { ...byName, labelSelector: { matchLabels: { app: 'other' } } }, 3],
    ['label mismatch', { ...byLabel, labelSelector: { matchLabels: { app: 'x' } } }, 0],
    ['wrong apiVersion', { ...byKind, apiVersion: 'apps/v1beta1' }, 0],
    ['wrong kind', { ...byKind, kind: 'StatefulSet' }, 0],
    ['namespace match', { ...byKind, namespace: 'default' }, 1],
    ['namespace mismatch', { ...byKind, namespace: 'prod' }, 0],
    ['bad selector operator never matches', { ...byKind, labelSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }, 0],
    ['empty label selector selects all', { ...byKind, labelSelector: {} }, 2],
  ];
  for (const [name, selector, want] of cases) it(name, () => assert.equal(selectorPriority(deploy, selector), want));
});

describe('matchPolicy', () => {
  const cases: Array<[string, PropagationPolicy[], PropagationPolicy[], { name: string; namespaced: boolean } | undefined]> = [
    ['none', [], [], undefined],
    ['nothing selects', [pp('a', [{ ...byName, name: 'x' }])], [], undefined],
    ['namespaced beats cluster even with lower priority',
      [pp('ns', [byKind], { priority: 0 })], [pp('cpp', [byName], { priority: 100 })], { name: 'ns', namespaced: true }],
    ['cluster policy when no namespaced policy matches', [pp('ns', [{ ...byKind, kind: 'Service' }])], [pp('cpp', [byKind])], { name: 'cpp', namespaced: false }],
    ['explicit priority beats implicit', [pp('name', [byName], { priority: 1 }), pp('kind', [byKind], { priority: 2 })], [], { name: 'kind', namespaced: true }],
    ['implicit: name > label > kind', [pp('a-kind', [byKind]), pp('b-label', [byLabel]), pp('c-name', [byName])], [], { name: 'c-name', namespaced: true }],
    ['implicit: label > kind', [pp('a-kind', [byKind]), pp('b-label', [byLabel])], [], { name: 'b-label', namespaced: true }],
    ['tie: name ascending', [pp('zeta', [byKind]), pp('alpha', [byKind]), pp('mid', [byKind])], [], { name: 'alpha', namespaced: true }],
    ['best selector of a policy counts', [pp('a', [byKind]), pp('b', [{ ...byKind, kind: 'Pod' }, byName])], [], { name: 'b', namespaced: true }],
    ['deleting policy skipped', [pp('a', [byName], { deleting: true }), pp('b', [byKind])], [], { name: 'b', namespaced: true }],
    ['negative priority still matches', [pp('a', [byKind], { priority: -5 })], [], { name: 'a', namespaced: true }],
    ['policy of another namespace ignored', [pp('other', [byName], { namespace: 'prod' })], [], undefined],
  ];
  for (const [name, nsPolicies, clusterPolicies, want] of cases) {
    it(name, () => {
      const got = matchPolicy(deploy, nsPolicies, clusterPolicies);
      assert.deepEqual(got && { name: got.policy.metadata.name, namespaced: got.namespaced }, want);
    });
  }

  it('a cluster-scoped template only sees cluster policies', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } };
    const sel: ResourceSelector = { apiVersion: 'v1', kind: 'Namespace' };
    const got = matchPolicy(ns, [pp('x', [sel])], [pp('c', [sel])]);
    assert.equal(got?.policy.metadata.name, 'c');
    assert.equal(got?.namespaced, false);
  });
});
