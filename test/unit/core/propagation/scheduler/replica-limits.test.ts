// clusterReplicaLimits (Warren's per-cluster min/max replicas) through the whole scheduler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterReplicaLimit, Placement, ReplicaSchedulingStrategy, TargetCluster } from '../../../../../src/core/propagation/karmada-types.ts';
import { schedule } from '../../../../../src/core/propagation/scheduler/schedule.ts';
import type { ScheduleInput, ScheduleResult } from '../../../../../src/core/propagation/scheduler/types.ts';
import { allocateWebsterSeats } from '../../../../../src/core/propagation/scheduler/webster.ts';
import { cluster, ONE_CPU } from './cluster-fixture.ts';

const asMap = (r: ScheduleResult): Record<string, number | undefined> => {
  assert.ok(r.ok, r.ok ? '' : `${r.reason}: ${r.message}`);
  return Object.fromEntries(r.clusters.map((c: TargetCluster) => [c.name, c.replicas]));
};
const failure = (r: ScheduleResult): { reason: string; message: string } => {
  assert.ok(!r.ok, `expected a failure, got ${JSON.stringify(r)}`);
  return { reason: r.reason, message: r.message };
};
const limit = (name: string, min?: number, max?: number): ClusterReplicaLimit =>
  ({ targetCluster: { clusterNames: [name] }, ...(min !== undefined ? { minReplicas: min } : {}), ...(max !== undefined ? { maxReplicas: max } : {}) });
const with_ = (s: ReplicaSchedulingStrategy, limits: ClusterReplicaLimit[]): Placement => ({ replicaScheduling: { ...s, clusterReplicaLimits: limits } });
const staticW = (w: Record<string, number>): ReplicaSchedulingStrategy => ({
  replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted',
  weightPreference: { staticWeightList: Object.entries(w).map(([name, weight]) => ({ targetCluster: { clusterNames: [name] }, weight })) },
});
const dynamicW: ReplicaSchedulingStrategy = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } };
const aggregated: ReplicaSchedulingStrategy = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' };
const duplicated: ReplicaSchedulingStrategy = { replicaSchedulingType: 'Duplicated' };
const two = [cluster('member1', { cpu: 10 }), cluster('member2', { cpu: 10 })];
const run = (placement: Placement, replicas: number, extra: Partial<ScheduleInput> = {}): ScheduleResult =>
  schedule({ placement, replicas, clusters: two, replicaRequirements: ONE_CPU, ...extra });

test('Divided assignments within the limits (table)', () => {
  const cases: Array<[string, Placement, number, Record<string, number>]> = [
    ['static 1:1, max 2 on member1: the excess goes to member2', with_(staticW({ member1: 1, member2: 1 }), [limit('member1', undefined, 2)]), 6, { member1: 2, member2: 4 }],
    ['static 1:2 (Karmada 3/6), max 4 on member2', with_(staticW({ member1: 1, member2: 2 }), [limit('member2', undefined, 4)]), 9, { member1: 5, member2: 4 }],
    ['static 1:1, min 5 on member1 is taken first', with_(staticW({ member1: 1, member2: 1 }), [limit('member1', 5)]), 6, { member1: 5, member2: 1 }],
    ['static 1:3, a min below the share changes nothing', with_(staticW({ member1: 1, member2: 3 }), [limit('member1', 1)]), 8, { member1: 2, member2: 6 }],
    ['static, unweighted member2 with min 2 gets exactly its min', with_(staticW({ member1: 1 }), [limit('member2', 2)]), 6, { member1: 4, member2: 2 }],
    ['equal weights (no preference), max 1 on member1', with_({ replicaSchedulingType: 'Divided' }, [limit('member1', 0, 1)]), 5, { member1: 1, member2: 4 }],
    ['dynamic, max 2 on member1', with_(dynamicW, [limit('member1', undefined, 2)]), 6, { member1: 2, member2: 4 }],
    ['dynamic, min 5 on member2', with_(dynamicW, [limit('member2', 5)]), 6, { member1: 1, member2: 5 }],
    ['Aggregated without limits fits on one cluster', { replicaScheduling: aggregated }, 6, { member1: 6 }],
    // A max below the target pulls in the next cluster; the prefix is divided by available replicas, as Karmada does.
    ['Aggregated, max 4 on member1 pulls in member2', with_(aggregated, [limit('member1', undefined, 4)]), 6, { member1: 3, member2: 3 }],
    ['Aggregated, max 0 on member1 moves everything', with_(aggregated, [limit('member1', undefined, 0)]), 6, { member2: 6 }],
    ['Aggregated, min 1 on member2 keeps it in use', with_(aggregated, [limit('member2', 1)]), 6, { member1: 5, member2: 1 }],
    ['entries combine to the tightest bounds', with_(staticW({ member1: 1, member2: 1 }), [limit('member1', 1, 5), { targetCluster: {}, maxReplicas: 3 }]), 6, { member1: 3, member2: 3 }],
    ['a limit on a cluster that is not selected is ignored', { ...with_(staticW({ member1: 1, member2: 1 }), [limit('member2', 3)]), clusterAffinity: { clusterNames: ['member1'] } }, 4, { member1: 4 }],
  ];
  for (const [name, placement, replicas, want] of cases) assert.deepEqual(asMap(run(placement, replicas)), want, name);
});

test('Duplicated: max caps, max 0 leaves the cluster out, min above the replicas fails', () => {
  assert.deepEqual(asMap(run(with_(duplicated, [limit('member1', undefined, 3)]), 5)), { member1: 3, member2: 5 });
  assert.deepEqual(asMap(run(with_(duplicated, [limit('member1', undefined, 0)]), 5)), { member2: 5 });
  assert.deepEqual(asMap(run(with_(duplicated, [limit('member1', 5)]), 5)), { member1: 5, member2: 5 });
  const f = failure(run(with_(duplicated, [limit('member1', 6)]), 5));
  assert.equal(f.reason, 'Unschedulable');
  assert.match(f.message, /cluster member1 requires minReplicas 6, more than the 5 replicas to duplicate/);
});

test('infeasible limits fail Unschedulable with a message that says why', () => {
  const cases: Array<[Placement, number, RegExp]> = [
    [with_(staticW({ member1: 1, member2: 1 }), [limit('member1', 4), limit('member2', 4)]), 6, /^failed to assign replicas: the minReplicas of the selected clusters sum to 8, more than the 6 replicas to schedule$/],
    [with_(dynamicW, [limit('member1', undefined, 2), limit('member2', undefined, 2)]), 6, /the maxReplicas of the selected clusters allow at most 4 of the 6 replicas/],
    // member2 has no max but also no weight: it takes no excess.
    [with_(staticW({ member1: 1 }), [limit('member1', undefined, 2)]), 6, /the clusterReplicaLimits leave room for 2 of the 6 replicas/],
    [with_(staticW({ member1: 1, member2: 1 }), [limit('member1', 3), limit('member1', undefined, 2)]), 6, /cluster member1 matches clusterReplicaLimits whose minReplicas 3 exceeds maxReplicas 2/],
  ];
  for (const [placement, replicas, message] of cases) {
    const f = failure(run(placement, replicas));
    assert.equal(f.reason, 'Unschedulable');
    assert.match(f.message, message);
  }
});

test('non-workloads (replicas 0) ignore the limits', () => {
  assert.deepEqual(asMap(run(with_(staticW({ member1: 1, member2: 1 }), [limit('member1', 4, 4)]), 0)), { member1: undefined, member2: undefined });
});

test('Steady keeps an assignment that still fits, Fresh re-divides; Steady moves only what breaks a bound', () => {
  const previous = [{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 4 }];
  // Limits gone: Steady keeps 2/4, Fresh divides by available replicas (equal clusters) 3/3.
  assert.deepEqual(asMap(run({ replicaScheduling: dynamicW }, 6, { previous })), { member1: 2, member2: 4 });
  assert.deepEqual(asMap(run({ replicaScheduling: dynamicW }, 6, { previous, mode: 'Fresh' })), { member1: 3, member2: 3 });
  // A new max 3 on member2: Steady takes one replica off member2 and gives it to member1.
  assert.deepEqual(asMap(run(with_(dynamicW, [limit('member2', undefined, 3)]), 6, { previous })), { member1: 3, member2: 3 });
  // A new min 3 on member1 with the same total: member1 raised to 3, member2 scaled down to 3.
  assert.deepEqual(asMap(run(with_(dynamicW, [limit('member1', 3)]), 6, { previous })), { member1: 3, member2: 3 });
  // Scale up within a max: the new replicas avoid the capped cluster.
  assert.deepEqual(asMap(run(with_(dynamicW, [limit('member1', undefined, 2)]), 10, { previous })), { member1: 2, member2: 8 });
});

test('webster bounds: seeded at min, stopped at max, short when every open party is capped', () => {
  const seats = allocateWebsterSeats(6, [{ name: 'a', votes: 1, max: 2 }, { name: 'b', votes: 1 }]);
  assert.deepEqual(Object.fromEntries(seats), { a: 2, b: 4 });
  const seeded = allocateWebsterSeats(6, [{ name: 'a', votes: 1, min: 5 }, { name: 'b', votes: 1 }]);
  assert.deepEqual(Object.fromEntries(seeded), { a: 5, b: 1 });
  const short = allocateWebsterSeats(6, [{ name: 'a', votes: 1, max: 2 }, { name: 'b', votes: 0, min: 1 }]);
  assert.deepEqual(Object.fromEntries(short), { a: 2, b: 1 });
});
