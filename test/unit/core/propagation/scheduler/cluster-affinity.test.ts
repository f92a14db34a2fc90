import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterAffinity } from '../../../../../src/core/propagation/karmada-types.ts';
import { matchesClusterAffinity } from '../../../../../src/core/propagation/scheduler/cluster-affinity.ts';
import { cluster } from './cluster-fixture.ts';

const m1 = cluster('member1', { labels: { env: 'prod', tier: 'gold' }, spec: { provider: 'aws', region: 'eu', zones: ['eu-1', 'eu-2'] } });
const bare = cluster('member2');

test('matchesClusterAffinity', () => {
  const cases: Array<[string, ClusterAffinity | undefined, typeof m1, boolean]> = [
    ['no affinity', undefined, m1, true],
    ['empty affinity', {}, m1, true],
    ['clusterNames hit', { clusterNames: ['member1'] }, m1, true],
    ['clusterNames miss', { clusterNames: ['member3'] }, m1, false],
    ['exclude wins over names', { clusterNames: ['member1'], exclude: ['member1'] }, m1, false],
    ['matchLabels', { labelSelector: { matchLabels: { env: 'prod' } } }, m1, true],
    ['matchLabels miss', { labelSelector: { matchLabels: { env: 'dev' } } }, m1, false],
    ['In', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }] } }, m1, true],
    ['NotIn', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gold'] }] } }, m1, false],
    ['NotIn on absent label', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gold'] }] } }, bare, true],
    ['Exists', { labelSelector: { matchExpressions: [{ key: 'env', operator: 'Exists' }] } }, m1, true],
    ['DoesNotExist', { labelSelector: { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] } }, m1, false],
    ['invalid operator matches nothing', { labelSelector: { matchExpressions: [{ key: 'env', operator: 'Bogus' }] } }, m1, false],
    ['labels and names both needed', { labelSelector: { matchLabels: { env: 'prod' } }, clusterNames: ['member9'] }, m1, false],
    ['provider In', { fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: ['aws'] }] } }, m1, true],
    ['region NotIn', { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['eu'] }] } }, m1, false],
    ['region In without region', { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] } }, bare, false],
    ['region NotIn without region', { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['eu'] }] } }, bare, true],
    ['In with no values is invalid', { fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: [] }] } }, m1, false],
    ['zone In needs every zone', { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-1'] }] } }, m1, false],
    ['zone In all listed', { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-1', 'eu-2', 'x'] }] } }, m1, true],
    ['zone NotIn', { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['us-1'] }] } }, m1, true],
    ['zone without zones never matches', { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['us-1'] }] } }, bare, false],
    ['spec.zone counts as zones', { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z'] }] } }, cluster('c', { spec: { zone: 'z' } }), true],
  ];
  for (const [name, affinity, c, want] of cases) assert.equal(matchesClusterAffinity(affinity, c), want, name);
});
