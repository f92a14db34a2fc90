import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildClusterTaints } from '../../../../src/controllers/clusters/cluster-taints.ts';
import type { Condition } from '../../../../src/controllers/runtime/conditions.ts';
import type { Taint } from '../../../../src/core/propagation/karmada-types.ts';

const now = new Date('2026-01-01T00:10:00Z');
const cond = (status: Condition['status'], since = '2026-01-01T00:00:00Z'): Condition => ({ type: 'Ready', status, lastTransitionTime: since });
const keys = (taints: Taint[]): string[] => taints.map((t) => `${t.key}:${t.effect}`);
const NR = 'cluster.karmada.io/not-ready';
const UR = 'cluster.karmada.io/unreachable';

describe('buildClusterTaints', () => {
  const cases: Array<{ name: string; taints?: Taint[]; ready?: Condition; noExecuteAfterMs?: number; want: string[] }> = [
    { name: 'a new cluster gets not-ready:NoSchedule', want: [`${NR}:NoSchedule`] },
    { name: 'False adds not-ready and drops unreachable', ready: cond('False'), taints: [{ key: UR, effect: 'NoSchedule' }], want: [`${NR}:NoSchedule`] },
    { name: 'Unknown adds unreachable and drops not-ready', ready: cond('Unknown'), taints: [{ key: NR, effect: 'NoSchedule' }], want: [`${UR}:NoSchedule`] },
    { name: 'True removes every health taint', ready: cond('True'), taints: [{ key: NR, effect: 'NoSchedule' }, { key: UR, effect: 'NoExecute' }], want: [] },
    { name: 'others\' taints are kept', ready: cond('True'), taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], want: ['dedicated:NoSchedule'] },
    { name: 'no NoExecute unless asked', ready: cond('False'), want: [`${NR}:NoSchedule`] },
    { name: 'NoExecute after the eviction timeout', ready: cond('False'), noExecuteAfterMs: 300_000, want: [`${NR}:NoSchedule`, `${NR}:NoExecute`] },
    { name: 'no NoExecute before the eviction timeout', ready: cond('False', '2026-01-01T00:09:00Z'), noExecuteAfterMs: 300_000, want: [`${NR}:NoSchedule`] },
    { name: 'Unknown swaps NoExecute taints', ready: cond('Unknown'), noExecuteAfterMs: 0, taints: [{ key: NR, effect: 'NoExecute' }], want: [`${UR}:NoSchedule`, `${UR}:NoExecute`] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(keys(buildClusterTaints({ taints: c.taints, ready: c.ready, now, noExecuteAfterMs: c.noExecuteAfterMs })), c.want));
  }

  it('stamps timeAdded on a new taint and keeps it on an existing one', () => {
    const added = buildClusterTaints({ taints: [], ready: cond('False'), now });
    assert.equal(added[0]?.timeAdded, '2026-01-01T00:10:00Z');
    const kept = buildClusterTaints({ taints: [{ key: NR, effect: 'NoSchedule', timeAdded: '2025-12-31T00:00:00Z' }], ready: cond('False'), now });
    assert.equal(kept[0]?.timeAdded, '2025-12-31T00:00:00Z');
  });
});
