// aggregatedStatusOf and fullyAppliedCondition: a binding's status from what
// happened on each member.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { aggregatedStatusOf, fullyAppliedCondition, type ClusterOutcome } from '../../../../../src/core/propagation/binding/binding-status.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const deployment = (ready: boolean): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'acme01-apps', generation: 2 },
  spec: { replicas: 2 },
  status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: ready ? 2 : 0, availableReplicas: ready ? 2 : 0, conditions: [{ type: 'Available' }] },
} as unknown as KubeObject);

describe('aggregatedStatusOf', () => {
  it('one item per cluster, sorted by name, with reflected status and health', () => {
    const items = aggregatedStatusOf([
      { cluster: 'm2', applied: true, memberObject: deployment(false) },
      { cluster: 'm1', applied: true, memberObject: deployment(true) },
    ]);
    assert.deepEqual(items.map((i) => i.clusterName), ['m1', 'm2']);
    assert.equal(items[0]?.health, 'Healthy');
    assert.equal(items[1]?.health, 'Unhealthy');
    assert.equal(items[0]?.status?.readyReplicas, 2);
    // Issue 14: a Deployment's Available and Progressing conditions travel too (its template's are built from them), nothing else.
    assert.deepEqual(items[0]?.status?.conditions, [{ type: 'Available' }], 'a Deployment reflects its replica counts and its Available/Progressing conditions');
    assert.equal(items[0]?.status?.lastUpdateTime, undefined);
  });

  it('a failed apply carries its message; a successful one never does', () => {
    const items = aggregatedStatusOf([{ cluster: 'a', applied: false, message: 'boom' }, { cluster: 'b', applied: true, message: 'ignored' }]);
    assert.deepEqual(items, [
      { clusterName: 'a', applied: false, appliedMessage: 'boom', health: 'Unknown' },
      { clusterName: 'b', applied: true, health: 'Unknown' },
    ]);
  });

  it('a kind without rules reflects its whole status, health Unknown; no status, no status field', () => {
    const widget = { apiVersion: 'x.io/v1', kind: 'Widget', metadata: { name: 'w' }, status: { phase: 'Ready' } } as unknown as KubeObject;
    const [item] = aggregatedStatusOf([{ cluster: 'a', applied: true, memberObject: widget }]);
    assert.deepEqual(item, { clusterName: 'a', applied: true, status: { phase: 'Ready' }, health: 'Unknown' });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } as unknown as KubeObject;
    assert.ok(!('status' in (aggregatedStatusOf([{ cluster: 'a', applied: true, memberObject: cm }])[0] ?? {})));
  });

  it('does not reorder its input', () => {
    const outcomes: ClusterOutcome[] = [{ cluster: 'z', applied: true }, { cluster: 'a', applied: true }];
    aggregatedStatusOf(outcomes);
    assert.deepEqual(outcomes.map((o) => o.cluster), ['z', 'a']);
  });
});

describe('fullyAppliedCondition', () => {
  it('True when every cluster applied', () => {
    assert.deepEqual(fullyAppliedCondition([{ clusterName: 'a', applied: true }, { clusterName: 'b', applied: true }]),
      { type: 'FullyApplied', status: 'True', reason: 'FullyAppliedSuccess', message: 'All works have been successfully applied' });
  });

  it('False with each failure named when any did not apply', () => {
    const c = fullyAppliedCondition([{ clusterName: 'a', applied: true }, { clusterName: 'b', applied: false, appliedMessage: 'denied' }, { clusterName: 'c', applied: false }]);
    assert.equal(c.status, 'False');
    assert.equal(c.reason, 'FullyAppliedFailed');
    assert.equal(c.message, 'Failed to apply all works, see status.aggregatedStatus for details: b: denied; c: not applied yet');
  });

  it('False when no cluster is scheduled', () => {
    assert.deepEqual(fullyAppliedCondition([]), { type: 'FullyApplied', status: 'False', reason: 'FullyAppliedFailed', message: 'No cluster is scheduled' });
  });

  it('property: True exactly when the list is non-empty and every item applied', () => {
    fc.assert(fc.property(fc.array(fc.record({ clusterName: fc.string(), applied: fc.boolean() })), (items) =>
      (fullyAppliedCondition(items).status === 'True') === (items.length > 0 && items.every((i) => i.applied))));
  });
});
