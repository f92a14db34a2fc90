import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Placement, TargetCluster } from '../../../../../src/core/propagation/karmada-types.ts';
import { schedule } from '../../../../../src/core/propagation/scheduler/schedule.ts';
import type { ScheduleInput, ScheduleResult } from '../../../../../src/core/propagation/scheduler/types.ts';
import { cluster, ONE_CPU } from './cluster-fixture.ts';

const ok = (r: ScheduleResult): TargetCluster[] => {
  assert.ok(r.ok, r.ok ? '' : `${r.reason}: ${r.message}`);
  return r.clusters;
};
const asMap = (list: TargetCluster[]) => Object.fromEntries(list.map((c) => [c.name, c.replicas]));
const divided = (extra: NonNullable<Placement['replicaScheduling']>): Placement =>
  ({ replicaScheduling: { replicaSchedulingType: 'Divided', ...extra } });
const staticWeights = (w: Record<string, number>): Placement => divided({
  replicaDivisionPreference: 'Weighted',
  weightPreference: { staticWeightList: Object.entries(w).map(([name, weight]) => ({ targetCluster: { clusterNames: [name] }, weight })) },
});
const dynamic = divided({ replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } });
const aggregated = divided({ replicaDivisionPreference: 'Aggregated' });
const two = [cluster('member1'), cluster('member2')];

test('static weights: Karmada vectors through the whole pipeline', () => {
  assert.deepEqual(asMap(ok(schedule({ placement: staticWeights({ member1: 1, member2: 2 }), replicas: 9, clusters: two }))), { member1: 3, member2: 6 });
  const three = [...two, cluster('member3')];
  assert.deepEqual(asMap(ok(schedule({ placement: staticWeights({ member1: 3, member2: 2, member3: 1 }), replicas: 12, clusters: three }))),
    { member1: 6, member2: 4, member3: 2 });
});

test('static weights: unweighted clusters get nothing; all-zero weights mean equal weights', () => {
  const three = [...two, cluster('member3')];
  assert.deepEqual(asMap(ok(schedule({ placement: staticWeights({ member1: 1 }), replicas: 4, clusters: three }))), { member1: 4 });
  assert.deepEqual(asMap(ok(schedule({ placement: staticWeights({ nowhere: 5 }), replicas: 4, clusters: three }))), { member1: 2, member2: 1, member3: 1 });
  // A cluster matching several rules takes the largest weight.
  const overlapping = divided({ replicaDivisionPreference: 'Weighted', weightPreference: { staticWeightList: [
    { targetCluster: {}, weight: 1 }, { targetCluster: { clusterNames: ['member2'] }, weight: 3 }] } });
  assert.deepEqual(asMap(ok(schedule({ placement: overlapping, replicas: 8, clusters: two }))), { member1: 2, member2: 6 });
});

test('static weights: equal-weight ties keep the previous odd replica', () => {
  const p = staticWeights({ member1: 1, member2: 1 });
  assert.deepEqual(asMap(ok(schedule({ placement: p, replicas: 5, clusters: two }))), { member1: 3, member2: 2 });
  assert.deepEqual(asMap(ok(schedule({ placement: p, replicas: 5, clusters: two, previous: [{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 3 }] }))),
    { member1: 2, member2: 3 });
});

test('Divided without a preference defaults to Weighted with equal weights', () => {
  const four = ['a', 'b', 'c', 'd'].map((n) => cluster(n));
  assert.deepEqual(asMap(ok(schedule({ placement: divided({}), replicas: 10, clusters: four }))), { a: 3, b: 3, c: 2, d: 2 });
  // And with more clusters than replicas, the empty ones are dropped.
  assert.deepEqual(ok(schedule({ placement: divided({}), replicas: 2, clusters: four })).map((c) => c.name), ['a', 'b']);
});

test('Duplicated, and no replicaScheduling at all, give every cluster all replicas', () => {
  for (const placement of [{ replicaScheduling: { replicaSchedulingType: 'Duplicated' as const } }, {}]) {
    assert.deepEqual(ok(schedule({ placement, replicas: 3, clusters: two })), [{ name: 'member1', replicas: 3 }, { name: 'member2', replicas: 3 }]);
  }
});

test('replicas 0: the selected cluster names only', () => {
  assert.deepEqual(ok(schedule({ placement: staticWeights({ member1: 1 }), replicas: 0, clusters: two })), [{ name: 'member1' }, { name: 'member2' }]);
});

test('dynamic weights divide by available replicas', () => {
  const clusters = [cluster('a', { cpu: 6 }), cluster('b', { cpu: 3 })];
  const base: ScheduleInput = { placement: dynamic, replicas: 6, replicaRequirements: ONE_CPU, clusters };
  assert.deepEqual(asMap(ok(schedule(base))), { a: 4, b: 2 });
  const short = schedule({ ...base, replicas: 10 });
  assert.deepEqual(short, { ok: false, reason: 'Unschedulable',
    message: 'failed to assign replicas: failed to scale up: Clusters available replicas 9 are not enough to schedule.' });
});

test('Steady vs Fresh on scale up and scale down', () => {
  const clusters = [cluster('a', { cpu: 6 }), cluster('b', { cpu: 3 })];
  const input: ScheduleInput = { placement: dynamic, replicas: 9, replicaRequirements: ONE_CPU, clusters, previous: [{ name: 'a', replicas: 1 }, { name: 'b', replicas: 5 }] };
  // Steady: keep a:1, b:5 and divide the 3 new replicas 6:3.
  assert.deepEqual(asMap(ok(schedule(input))), { a: 3, b: 6 });
  // Fresh: weights are available + held (7:8) over all 9.
  assert.deepEqual(asMap(ok(schedule({ ...input, mode: 'Fresh' }))), { a: 4, b: 5 });
  // Scale down: proportional to the previous assignment.
  assert.deepEqual(asMap(ok(schedule({ ...input, replicas: 6, previous: [{ name: 'a', replicas: 6 }, { name: 'b', replicas: 3 }] }))), { a: 4, b: 2 });
  // Same total: unchanged, whatever the estimates say now.
  assert.deepEqual(asMap(ok(schedule({ ...input, replicas: 6, previous: [{ name: 'a', replicas: 1 }, { name: 'b', replicas: 5 }] }))), { a: 1, b: 5 });
  // A previous cluster that is no longer a candidate: its replicas count as new ones.
  assert.deepEqual(asMap(ok(schedule({ ...input, replicas: 3, previous: [{ name: 'gone', replicas: 3 }] }))), { a: 2, b: 1 });
});

test('Aggregated uses as few clusters as possible, previous ones first', () => {
  const clusters = [cluster('a', { cpu: 6 }), cluster('b', { cpu: 3 }), cluster('c', { cpu: 10 })];
  const input: ScheduleInput = { placement: aggregated, replicas: 8, replicaRequirements: ONE_CPU, clusters };
  assert.deepEqual(asMap(ok(schedule(input))), { c: 8 });
  // 12 needs c and a; Webster on 10:6 ties on the 12th seat (10/15 = 6/9): fewer seats wins.
  assert.deepEqual(asMap(ok(schedule({ ...input, replicas: 12 }))), { a: 5, c: 7 });
  // Scale up with b already holding replicas: b is filled first.
  assert.deepEqual(asMap(ok(schedule({ ...input, replicas: 4, previous: [{ name: 'b', replicas: 1 }] }))), { b: 4 });
  assert.deepEqual(schedule({ ...input, replicas: 20 }).ok, false);
});

test('filters: Karmada FitError message', () => {
  const taint = { key: 'key', value: 'value', effect: 'NoSchedule' as const };
  const clusters = [cluster('m1', { labels: { env: 'dev' } }), cluster('m2', { labels: { env: 'prod' }, taints: [taint] }),
    cluster('m3', { labels: { env: 'prod' }, taints: [taint] })];
  const r = schedule({ placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } }, replicas: 1, clusters });
  assert.deepEqual(r, { ok: false, reason: 'NoClusterFit',
    message: '0/3 clusters are available: 1 cluster(s) did not match the placement cluster affinity constraint, 2 cluster(s) had untolerated taint {key=value:NoSchedule}' });
  const spread = schedule({ placement: { spreadConstraints: [{ spreadByField: 'region', minGroups: 1, maxGroups: 1 }] }, replicas: 1, clusters: [cluster('x')] });
  assert.deepEqual(spread, { ok: false, reason: 'NoClusterFit', message: "0/1 clusters are available: 1 cluster(s) didn't have region property" });
});

test('filters: tolerations, unready clusters, previous targets and deleting clusters', () => {
  const notReady = cluster('sick', { taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }] });
  const soft = cluster('soft', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] });
  const gone = cluster('gone', { deleting: true });
  const base: ScheduleInput = { placement: {}, replicas: 1, clusters: [notReady, soft, gone] };
  assert.deepEqual(ok(schedule(base)).map((c) => c.name), ['soft']);
  const tolerating = { clusterTolerations: [{ operator: 'Exists' as const }] };
  assert.deepEqual(ok(schedule({ ...base, placement: tolerating })).map((c) => c.name), ['sick', 'soft']);
  // A cluster the binding already uses is not re-filtered by its taints (eviction handles it).
  assert.deepEqual(ok(schedule({ ...base, previous: [{ name: 'sick', replicas: 1 }] })).map((c) => c.name), ['sick', 'soft']);
  assert.deepEqual(schedule({ ...base, clusters: [notReady, gone] }), { ok: false, reason: 'NoClusterFit',
    message: '0/2 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoExecute}' });
});

// Issue 14 item 10: evicted clusters are not candidates, yet the tenant has them: "0/0" was a lie.
test('clusters excluded by failover count in the FitError message', () => {
  const r = schedule({ placement: {}, replicas: 1, clusters: [], excluded: new Map([['m1', 'cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoExecute}'], ['m2', 'cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoExecute}']]) });
  assert.deepEqual(r, { ok: false, reason: 'NoClusterFit', message: '0/2 clusters are available: 2 cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoExecute}' });
});

test('clusterAffinities: fall back in order, report the term, start from the observed one', () => {
  const placement: Placement = { clusterAffinities: [
    { affinityName: 'primary', clusterNames: ['m1'] }, { affinityName: 'backup', clusterNames: ['m2'] }] };
  const healthy = [cluster('m1'), cluster('m2')];
  const m1Down = [cluster('m1', { taints: [{ key: 'cluster.karmada.io/unreachable', effect: 'NoExecute' }] }), cluster('m2')];
  assert.deepEqual(schedule({ placement, replicas: 2, clusters: healthy }), { ok: true, clusters: [{ name: 'm1', replicas: 2 }], affinityName: 'primary' });
  assert.deepEqual(schedule({ placement, replicas: 2, clusters: m1Down }), { ok: true, clusters: [{ name: 'm2', replicas: 2 }], affinityName: 'backup' });
  // Karmada keeps the observed term: m1 recovering does not pull the binding back.
  assert.deepEqual(schedule({ placement, replicas: 2, clusters: healthy, previousAffinityName: 'backup' }),
    { ok: true, clusters: [{ name: 'm2', replicas: 2 }], affinityName: 'backup' });
  assert.equal((schedule({ placement, replicas: 2, clusters: healthy, previousAffinityName: 'nope' }) as { affinityName?: string }).affinityName, 'primary');
  // Nothing fits anywhere: the first term's failure.
  const r = schedule({ placement, replicas: 2, clusters: [cluster('m3')] });
  assert.deepEqual(r, { ok: false, reason: 'NoClusterFit', message: '0/1 clusters are available: 1 cluster(s) did not match the placement cluster affinity constraint' });
});

test('spread by cluster: maxGroups by rank, minGroups enforced, available replicas swapped in', () => {
  const four = ['a', 'b', 'c', 'd'].map((n) => cluster(n));
  const dup = (min: number, max: number): Placement => ({ replicaScheduling: { replicaSchedulingType: 'Duplicated' },
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: min, maxGroups: max }] });
  assert.deepEqual(ok(schedule({ placement: dup(1, 2), replicas: 1, clusters: four })).map((c) => c.name), ['a', 'b']);
  // Clusters already used score higher (ClusterLocality), so they stay.
  assert.deepEqual(ok(schedule({ placement: dup(1, 2), replicas: 1, clusters: four, previous: [{ name: 'd', replicas: 1 }] })).map((c) => c.name), ['a', 'd']);
  assert.deepEqual(schedule({ placement: dup(5, 5), replicas: 1, clusters: four }), { ok: false, reason: 'SchedulerError',
    message: 'failed to select clusters: the number of feasible clusters is less than spreadConstraint.MinGroups' });

  // m1 is preferred (it holds replicas) but small; with 70 wanted it is swapped for m3.
  const clusters = [cluster('m1', { cpu: 0 }), cluster('m2', { cpu: 50 }), cluster('m3', { cpu: 20 })];
  const p: Placement = { ...dynamic, spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }] };
  const input: ScheduleInput = { placement: p, replicas: 70, replicaRequirements: ONE_CPU, clusters, previous: [{ name: 'm1', replicas: 10 }] };
  assert.deepEqual(asMap(ok(schedule(input))), { m2: 50, m3: 20 });
  assert.deepEqual(schedule({ ...input, replicas: 200 }), { ok: false, reason: 'SchedulerError',
    message: 'failed to select clusters: no enough resource when selecting 2 clusters' });
});

test('spread by region: pick regions, leaders first, then fill by rank', () => {
  const inRegion = (name: string, region: string) => cluster(name, { spec: { region } });
  const clusters = [inRegion('a', 'r1'), inRegion('b', 'r1'), inRegion('c', 'r2'), inRegion('d', 'r3'), inRegion('e', 'r3')];
  const placement = (regionMin: number, regionMax: number, clusterMin: number, clusterMax: number): Placement => ({
    replicaScheduling: { replicaSchedulingType: 'Duplicated' },
    spreadConstraints: [{ spreadByField: 'region', minGroups: regionMin, maxGroups: regionMax }, { spreadByField: 'cluster', minGroups: clusterMin, maxGroups: clusterMax }],
  });
  // Two regions holding ≥ 3 clusters: [r1, r3] has the most clusters among equal scores.
  assert.deepEqual(ok(schedule({ placement: placement(2, 2, 3, 3), replicas: 1, clusters })).map((c) => c.name), ['a', 'b', 'd']);
  // Without a cluster constraint Karmada takes one cluster per region.
  const regionOnly: Placement = { spreadConstraints: [{ spreadByField: 'region', minGroups: 1, maxGroups: 3 }] };
  assert.deepEqual(ok(schedule({ placement: regionOnly, replicas: 0, clusters })).map((c) => c.name).length, 1);
  assert.deepEqual(schedule({ placement: placement(4, 4, 1, 5), replicas: 1, clusters }), { ok: false, reason: 'SchedulerError',
    message: 'failed to select clusters: the number of feasible region is less than spreadConstraint.MinGroups' });
  assert.deepEqual(schedule({ placement: placement(1, 1, 3, 5), replicas: 1, clusters }), { ok: false, reason: 'SchedulerError',
    message: 'failed to select clusters: the number of clusters is less than the cluster spreadConstraint.MinGroups' });
});

test('static weights ignore spread constraints, as Karmada does', () => {
  const p: Placement = { ...staticWeights({ member1: 1, member2: 1 }), spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 1 }] };
  assert.deepEqual(asMap(ok(schedule({ placement: p, replicas: 2, clusters: two }))), { member1: 1, member2: 1 });
});
