import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildObservedReadyCondition, thresholdAdjustedReadyCondition } from '../../../../src/controllers/clusters/ready-condition.ts';
import type { Condition } from '../../../../src/controllers/runtime/conditions.ts';

const ready = (status: Condition['status']): Condition => ({ type: 'Ready', status, reason: status === 'True' ? 'ClusterReady' : 'ClusterNotReachable', message: 'old' });

describe('buildObservedReadyCondition', () => {
  const cases = [
    { outcome: { online: false, healthy: false }, want: ['False', 'ClusterNotReachable', 'cluster is not reachable'] },
    { outcome: { online: true, healthy: false }, want: ['False', 'ClusterNotReady', 'cluster is reachable but health endpoint responded without ok'] },
    { outcome: { online: true, healthy: true }, want: ['True', 'ClusterReady', 'cluster is healthy and ready to accept workloads'] },
  ];
  for (const c of cases) {
    it(`online=${c.outcome.online} healthy=${c.outcome.healthy}`, () => {
      const got = buildObservedReadyCondition(c.outcome);
      assert.deepEqual([got.status, got.reason, got.message], c.want);
    });
  }
});

describe('thresholdAdjustedReadyCondition (Karmada cluster_condition_cache)', () => {
  const thresholds = { successThresholdMs: 30_000, failureThresholdMs: 30_000 };
  const down = buildObservedReadyCondition({ online: false, healthy: false });
  const up = buildObservedReadyCondition({ online: true, healthy: true });
  const cases = [
    { name: 'a cluster seen first takes the observation', saved: undefined, current: ready('True'), observed: down, nowMs: 0, want: 'False' },
    { name: 'no current condition takes the observation', saved: { observed: 'True' as const, since: 0 }, current: undefined, observed: down, nowMs: 1, want: 'False' },
    { name: 'True → False is held within the failure threshold', saved: { observed: 'True' as const, since: 0 }, current: ready('True'), observed: down, nowMs: 10_000, want: 'True' },
    { name: 'a failure that started 29 s ago is still held', saved: { observed: 'False' as const, since: 1_000 }, current: ready('True'), observed: down, nowMs: 30_000, want: 'True' },
    { name: 'a failure held for the threshold is written', saved: { observed: 'False' as const, since: 0 }, current: ready('True'), observed: down, nowMs: 30_000, want: 'False' },
    { name: 'False → True is held within the success threshold', saved: { observed: 'False' as const, since: 0 }, current: ready('False'), observed: up, nowMs: 50_000, want: 'False' },
    { name: 'a recovery held for the threshold is written', saved: { observed: 'True' as const, since: 10_000 }, current: ready('False'), observed: up, nowMs: 40_000, want: 'True' },
    { name: 'Unknown → False is not held', saved: { observed: 'True' as const, since: 0 }, current: ready('Unknown'), observed: down, nowMs: 1, want: 'False' },
    { name: 'no flip is written at once', saved: { observed: 'True' as const, since: 0 }, current: ready('True'), observed: up, nowMs: 1, want: 'True' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = thresholdAdjustedReadyCondition({ ...thresholds, saved: c.saved, current: c.current, observed: c.observed, nowMs: c.nowMs });
      assert.equal(got.condition.status, c.want);
    });
  }

  it('restarts the clock when the observation changes', () => {
    const first = thresholdAdjustedReadyCondition({ ...thresholds, saved: { observed: 'True', since: 0 }, current: ready('True'), observed: down, nowMs: 5_000 });
    assert.deepEqual(first.saved, { observed: 'False', since: 5_000 });
    const blip = thresholdAdjustedReadyCondition({ ...thresholds, saved: first.saved, current: ready('True'), observed: up, nowMs: 6_000 });
    const again = thresholdAdjustedReadyCondition({ ...thresholds, saved: blip.saved, current: ready('True'), observed: down, nowMs: 34_000 });
    assert.equal(again.condition.status, 'True', 'the failure restarted at 34 s, so it is held');
  });
});
