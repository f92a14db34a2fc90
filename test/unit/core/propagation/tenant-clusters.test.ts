// allowedClusters / resolveTenantClusters: which member Clusters a tenant may
// use (names, label selector, their union; neither means none).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { allowedClusters, resolveTenantClusters, type TenantClusterRule } from '../../../../src/core/propagation/tenant-clusters.ts';
import type { Cluster } from '../../../../src/core/propagation/karmada-types.ts';

const c = (name: string, labels: Record<string, string> = {}): Cluster => ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name, labels }, spec: {} });
const ALL = [c('m1', { tier: 'gold' }), c('m2', { tier: 'silver' }), c('m3', {})];
const names = (cs: Cluster[]): string[] => cs.map((x) => x.metadata.name ?? '');

describe('allowedClusters', () => {
  const table: Array<[string, TenantClusterRule | undefined, string[]]> = [
    ['no rule: none', undefined, []],
    ['an empty rule: none', {}, []],
    ['names only', { names: ['m3', 'nope'] }, ['m3']],
    ['an empty names list: none', { names: [] }, []],
    ['a label selector only', { labelSelector: { matchLabels: { tier: 'gold' } } }, ['m1']],
    ['an expression selector', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } }, ['m1', 'm2']],
    ['names or selector: the union, in the clusters\' order', { names: ['m3'], labelSelector: { matchLabels: { tier: 'gold' } } }, ['m1', 'm3']],
    ['an empty selector selects everything', { labelSelector: {} }, ['m1', 'm2', 'm3']],
  ];
  for (const [name, rule, want] of table) it(name, () => assert.deepEqual(names(allowedClusters(rule, ALL)), want));

  it('keeps the given order and returns a new array', () => {
    const reversed = [...ALL].reverse();
    const out = allowedClusters({ labelSelector: {} }, reversed);
    assert.notEqual(out, reversed);
    assert.deepEqual(names(out), ['m3', 'm2', 'm1']);
  });

  it('resolveTenantClusters: sorted, deduplicated names, whatever the listing order', () => {
    const listed = [c('m3'), c('m1', { tier: 'gold' }), c('m1', { tier: 'gold' }), c('m2')];
    assert.deepEqual(resolveTenantClusters({ names: ['m3', 'm1'], labelSelector: { matchLabels: { tier: 'gold' } } }, listed), ['m1', 'm3']);
    assert.deepEqual(resolveTenantClusters(undefined, listed), []);
  });

  it('property: with names only, exactly the named clusters that exist', () => {
    fc.assert(fc.property(fc.subarray(['m1', 'm2', 'm3', 'x', 'y']), (wanted) =>
      JSON.stringify(names(allowedClusters({ names: wanted }, ALL))) === JSON.stringify(['m1', 'm2', 'm3'].filter((n) => wanted.includes(n)))));
  });
});
