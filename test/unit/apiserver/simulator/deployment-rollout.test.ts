import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planRolloutStep, resolveIntOrPercent, surgeAndUnavailable, type ReplicaSetState } from '../../../../src/apiserver/simulator/deployment-rollout.ts';

const rs = (name: string, replicas: number, available = replicas, revision = 1, current = replicas): ReplicaSetState => ({ name, replicas, available, revision, current });

describe('deployment rollout arithmetic', () => {
  const intOrPercent = [
    { value: undefined, total: 4, roundUp: true, want: 1 },
    { value: '25%', total: 3, roundUp: true, want: 1 },
    { value: '25%', total: 3, roundUp: false, want: 0 },
    { value: '50%', total: 5, roundUp: false, want: 2 },
    { value: 2, total: 10, roundUp: false, want: 2 },
    { value: '3', total: 10, roundUp: false, want: 3 },
  ];
  for (const c of intOrPercent) it(`resolveIntOrPercent(${String(c.value)}, ${c.total}, up=${c.roundUp}) = ${c.want}`, () => {
    assert.equal(resolveIntOrPercent(c.value, '25%', c.total, c.roundUp), c.want);
  });

  it('maxSurge = maxUnavailable = 0 becomes maxUnavailable 1; Recreate has neither', () => {
    assert.deepEqual(surgeAndUnavailable({ rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }, 3), { maxSurge: 0, maxUnavailable: 1 });
    assert.deepEqual(surgeAndUnavailable({ type: 'Recreate' }, 3), { maxSurge: 0, maxUnavailable: 0 });
  });

  const noUnavailable = { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
  const steps = [
    { name: 'no old ReplicaSets: new goes straight to desired', desired: 3, next: rs('n', 0), olds: [], want: { n: 3 } },
    { name: 'scale-down with no rollout', desired: 1, next: rs('n', 3), olds: [rs('o', 0)], want: { n: 1 } },
    { name: 'rolling: surge the new one first', desired: 4, next: rs('n', 0, 0, 2), olds: [rs('o', 4)], want: { n: 1 } },
    { name: 'rolling: 25% of 4 may be unavailable, so old goes down at once', desired: 4, next: rs('n', 1, 0, 2), olds: [rs('o', 4)], want: { o: 3 } },
    { name: 'rolling: maxUnavailable 0 waits while the new pod is unavailable', desired: 4, strategy: noUnavailable, next: rs('n', 1, 0, 2), olds: [rs('o', 4)], want: {} },
    { name: 'rolling: maxUnavailable 0 scales old down once the new pod is available', desired: 4, strategy: noUnavailable, next: rs('n', 1, 1, 2), olds: [rs('o', 4)], want: { o: 3 } },
    { name: 'rolling: oldest revision is scaled down first', desired: 2, strategy: noUnavailable, next: rs('n', 2, 1, 3), olds: [rs('b', 1, 1, 2), rs('a', 1, 1, 1)], want: { a: 0 } },
    { name: 'recreate: old ones to zero first', desired: 2, strategy: { type: 'Recreate' as const }, next: rs('n', 0, 0, 2), olds: [rs('o', 2)], want: { o: 0 } },
    { name: 'recreate: wait for old pods to go', desired: 2, strategy: { type: 'Recreate' as const }, next: rs('n', 0, 0, 2), olds: [rs('o', 0, 0, 1, 1)], want: {} },
    { name: 'recreate: then the new one', desired: 2, strategy: { type: 'Recreate' as const }, next: rs('n', 0, 0, 2), olds: [rs('o', 0, 0, 1, 0)], want: { n: 2 } },
  ];
  for (const c of steps) it(`step: ${c.name}`, () => {
    assert.deepEqual(Object.fromEntries(planRolloutStep(c.desired, c.strategy, c.next, c.olds)), c.want);
  });

  it('a rolling update converges without exceeding desired + maxSurge or dropping below desired - maxUnavailable', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (desired, surge, unavailable) => {
      const strategy = { rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } };
      const limits = surgeAndUnavailable(strategy, desired);
      let next = rs('n', 0, 0, 2);
      let old = rs('o', desired);
      for (let step = 0; step < 200 && !(next.replicas === desired && old.replicas === 0); step++) {
        const plan = planRolloutStep(desired, strategy, next, [old]);
        // Pods become available between steps; scale-downs take effect at once.
        next = rs('n', plan.get('n') ?? next.replicas, next.replicas, 2);
        old = rs('o', plan.get('o') ?? old.replicas);
        assert.ok(next.replicas + old.replicas <= desired + limits.maxSurge, 'surge bound');
        assert.ok(next.available + old.available >= Math.min(desired - limits.maxUnavailable, desired), 'availability bound');
      }
      assert.equal(next.replicas, desired);
      assert.equal(old.replicas, 0);
    }));
  });
});
