import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setCondition, isConditionTrue } from '../../../../src/controllers/runtime/conditions.ts';

const t0 = new Date('2025-01-01T00:00:00.400Z');
const t1 = new Date('2025-01-01T00:05:00Z');

describe('setCondition', () => {
  const cases = [
    { name: 'adds a new condition at now, whole seconds', before: [], status: 'True' as const, at: t1, want: '2025-01-01T00:05:00Z' },
    { name: 'keeps lastTransitionTime when the status stays', before: [{ type: 'Ready', status: 'True' as const, lastTransitionTime: '2025-01-01T00:00:00Z' }], status: 'True' as const, at: t1, want: '2025-01-01T00:00:00Z' },
    { name: 'moves lastTransitionTime when the status flips', before: [{ type: 'Ready', status: 'False' as const, lastTransitionTime: '2025-01-01T00:00:00Z' }], status: 'True' as const, at: t1, want: '2025-01-01T00:05:00Z' },
    { name: 'rounds the instant down to the second', before: [], status: 'False' as const, at: t0, want: '2025-01-01T00:00:00Z' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = setCondition(c.before, { type: 'Ready', status: c.status, reason: 'R', message: 'm' }, { generation: 3, now: c.at });
      assert.equal(out.length, 1);
      assert.deepEqual(out[0], { type: 'Ready', status: c.status, reason: 'R', message: 'm', lastTransitionTime: c.want, observedGeneration: 3 });
    });
  }

  it('leaves other conditions and the input list alone', () => {
    const before = [{ type: 'A', status: 'True' as const }, { type: 'Ready', status: 'False' as const }];
    const out = setCondition(before, { type: 'Ready', status: 'True', reason: 'R' }, { now: t1 });
    assert.deepEqual(out.map((c) => c.type), ['A', 'Ready']);
    assert.equal(before[1]?.status, 'False');
    assert.ok(isConditionTrue(out, 'Ready'));
    assert.ok(!isConditionTrue(out, 'B'));
  });

  // A real kube-apiserver 1.20.2 reads "" in a custom resource's string field as null and refuses the write.
  for (const message of [undefined, '']) {
    it(`writes no message when it is ${JSON.stringify(message)}`, () => {
      const out = setCondition([], { type: 'Ready', status: 'True', reason: 'R', ...(message !== undefined ? { message } : {}) }, { now: t1 });
      assert.ok(out[0] && !('message' in out[0]));
      assert.ok(!JSON.stringify(out).includes('""'));
    });
  }
});
