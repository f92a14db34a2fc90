// Properties of schedule() over random clusters, placements and previous assignments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Cluster, ClusterAffinity, ClusterReplicaLimit, Placement, TargetCluster } from '../../../../../src/core/propagation/karmada-types.ts';
import { buildReplicaLimits } from '../../../../../src/core/propagation/scheduler/replica-limits.ts';
import { schedule } from '../../../../../src/core/propagation/scheduler/schedule.ts';
import { filterReason } from '../../../../../src/core/propagation/scheduler/filter.ts';
import type { ScheduleInput } from '../../../../../src/core/propagation/scheduler/types.ts';
import { cluster, ONE_CPU } from './cluster-fixture.ts';

const clusterArb: fc.Arbitrary<Cluster> = fc.record({
  env: fc.constantFrom('prod', 'dev'),
  region: fc.constantFrom('', 'r1', 'r2', 'r3'),
  tainted: fc.boolean(),
  cpu: fc.integer({ min: 0, max: 30 }),
}).map(({ env, region, tainted, cpu }, ) => cluster('?', {
  labels: { env }, cpu, spec: region ? { region } : {},
  ...(tainted ? { taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' as const }] } : {}),
}));

const clustersArb = fc.array(clusterArb, { minLength: 0, maxLength: 6 })
  .map((list) => list.map((c, i) => ({ ...c, metadata: { ...c.metadata, name: `m${i}` } })));

const placementArb: fc.Arbitrary<Placement> = fc.record({
  strategy: fc.constantFrom('none', 'Duplicated', 'static', 'equal', 'dynamic', 'Aggregated'),
  affinity: fc.constantFrom('none', 'prod', 'names'),
  tolerate: fc.boolean(),
  spread: fc.constantFrom('none', 'cluster', 'region'),
}).map(({ strategy, affinity, tolerate, spread }) => {
  const p: Placement = {};
  if (affinity === 'prod') p.clusterAffinity = { labelSelector: { matchLabels: { env: 'prod' } } };
  if (affinity === 'names') p.clusterAffinity = { clusterNames: ['m0', 'm2', 'm4'] };
  if (tolerate) p.clusterTolerations = [{ key: 'cluster.karmada.io/not-ready', operator: 'Exists' }];
  if (spread === 'cluster') p.spreadConstraints = [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }];
  if (spread === 'region') p.spreadConstraints = [{ spreadByField: 'region', minGroups: 1, maxGroups: 2 }, { spreadByField: 'cluster', minGroups: 1, maxGroups: 3 }];
  if (strategy === 'Duplicated') p.replicaScheduling = { replicaSchedulingType: 'Duplicated' };
  if (strategy === 'static') p.replicaScheduling = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted',
    weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m0', 'm1'] }, weight: 2 }, { targetCluster: { labelSelector: { matchLabels: { env: 'dev' } } }, weight: 1 }] } };
  if (strategy === 'equal') p.replicaScheduling = { replicaSchedulingType: 'Divided' };
  if (strategy === 'dynamic') p.replicaScheduling = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } };
  if (strategy === 'Aggregated') p.replicaScheduling = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' };
  return p;
});

const previousArb: fc.Arbitrary<TargetCluster[]> = fc.uniqueArray(
  fc.record({ name: fc.constantFrom('m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'gone'), replicas: fc.integer({ min: 0, max: 10 }) }),
  { maxLength: 4, selector: (t) => t.name });

const inputArb: fc.Arbitrary<ScheduleInput> = fc.record({
  placement: placementArb, replicas: fc.integer({ min: 0, max: 40 }), clusters: clustersArb, previous: previousArb,
  mode: fc.constantFrom<'Steady' | 'Fresh'>('Steady', 'Fresh'),
}).map((i) => ({ ...i, replicaRequirements: ONE_CPU }));

const isDivided = (p: Placement) => p.replicaScheduling?.replicaSchedulingType === 'Divided';

test('property: same input, same output (and the input is not mutated)', () => {
  fc.assert(fc.property(inputArb, (input) => {
    const copy = JSON.parse(JSON.stringify(input)) as ScheduleInput;
    const again = JSON.parse(JSON.stringify(input)) as ScheduleInput;
    assert.deepEqual(schedule(copy), schedule(again));
    assert.deepEqual(copy, again);
  }), { numRuns: 300 });
});

test('property: results name only input clusters that pass the filters', () => {
  fc.assert(fc.property(inputArb, (input) => {
    const r = schedule(input);
    if (!r.ok) return;
    const previous = new Set((input.previous ?? []).map((c) => c.name));
    const names = r.clusters.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, 'no duplicates');
    for (const name of names) {
      const c = input.clusters.find((x) => x.metadata.name === name);
      assert.ok(c, `${name} is an input cluster`);
      assert.equal(filterReason(c, input.placement, input.placement.clusterAffinity, previous), undefined, `${name} passes the filters`);
    }
  }), { numRuns: 300 });
});

test('property: Divided sums to replicas; Duplicated gives each all; replicas 0 gives no counts', () => {
  // Guard against a vacuous property: enough generated inputs must schedule successfully.
  const seen = { divided: 0, duplicated: 0, zero: 0 };
  fc.assert(fc.property(inputArb, (input) => {
    const r = schedule(input);
    if (!r.ok) return;
    if (input.replicas === 0) {
      seen.zero++;
      for (const c of r.clusters) assert.equal(c.replicas, undefined);
    } else if (isDivided(input.placement)) {
      seen.divided++;
      assert.equal(r.clusters.reduce((s, c) => s + (c.replicas ?? 0), 0), input.replicas);
      for (const c of r.clusters) assert.ok((c.replicas ?? 0) > 0);
    } else {
      seen.duplicated++;
      for (const c of r.clusters) assert.equal(c.replicas, input.replicas);
    }
  }), { numRuns: 300 });
  assert.ok(seen.divided >= 20 && seen.duplicated >= 20 && seen.zero >= 1, JSON.stringify(seen));
});

test('property: Steady scale-up never takes replicas from a cluster that keeps being selected', () => {
  fc.assert(fc.property(inputArb, fc.integer({ min: 1, max: 10 }), (input, extra) => {
    const strategy = input.placement.replicaScheduling;
    if (!isDivided(input.placement) || input.mode === 'Fresh' || input.replicas === 0) return;
    if (!strategy?.weightPreference?.dynamicWeight && strategy?.replicaDivisionPreference !== 'Aggregated') return;
    const first = schedule({ ...input, previous: [] });
    if (!first.ok) return;
    const second = schedule({ ...input, replicas: input.replicas + extra, previous: first.clusters });
    if (!second.ok) return;
    for (const before of first.clusters) {
      const after = second.clusters.find((c) => c.name === before.name);
      if (after) assert.ok((after.replicas ?? 0) >= (before.replicas ?? 0), `${before.name}`);
    }
  }), { numRuns: 300 });
});

// ---- clusterReplicaLimits (Warren's per-cluster min/max replicas)

const limitArb: fc.Arbitrary<ClusterReplicaLimit> = fc.record({
  target: fc.constantFrom<ClusterAffinity>({ clusterNames: ['m0'] }, { clusterNames: ['m1', 'm2'] }, { labelSelector: { matchLabels: { env: 'prod' } } }, {}),
  min: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
  max: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
}).filter((l) => l.min === undefined || l.max === undefined || l.min <= l.max)
  .map(({ target, min, max }) => ({ targetCluster: target, ...(min !== undefined ? { minReplicas: min } : {}), ...(max !== undefined ? { maxReplicas: max } : {}) }));

const limitedArb: fc.Arbitrary<ScheduleInput> = fc.tuple(inputArb, fc.array(limitArb, { minLength: 1, maxLength: 3 })).map(([input, limits]) => ({
  ...input, placement: { ...input.placement, replicaScheduling: { ...input.placement.replicaScheduling, clusterReplicaLimits: limits } },
}));

function boundsOf(input: ScheduleInput): Map<string, { min: number; max?: number }> {
  const built = buildReplicaLimits(input.clusters, input.placement.replicaScheduling?.clusterReplicaLimits);
  return built.ok ? built.value : new Map();
}

test('property: with clusterReplicaLimits, every cluster is within its bounds and Divided sums to replicas', () => {
  const seen = { divided: 0, duplicated: 0, capped: 0 };
  fc.assert(fc.property(limitedArb, (input) => {
    const r = schedule(input);
    if (!r.ok || input.replicas === 0) return;
    const bounds = boundsOf(input);
    for (const c of r.clusters) {
      const b = bounds.get(c.name);
      if (!b) continue;
      assert.ok((c.replicas ?? 0) >= b.min, `${c.name} ${c.replicas} >= min ${b.min}`);
      if (b.max !== undefined) {
        assert.ok((c.replicas ?? 0) <= b.max, `${c.name} ${c.replicas} <= max ${b.max}`);
        if (b.max < input.replicas) seen.capped++;
      }
    }
    if (isDivided(input.placement)) {
      seen.divided++;
      assert.equal(r.clusters.reduce((s, c) => s + (c.replicas ?? 0), 0), input.replicas);
    } else {
      seen.duplicated++;
    }
  }), { numRuns: 500 });
  assert.ok(seen.divided >= 20 && seen.duplicated >= 20 && seen.capped >= 20, JSON.stringify(seen));
});

test('property: mins that fit in the replicas (no maxes) never make a schedulable input fail', () => {
  let checked = 0;
  fc.assert(fc.property(limitedArb, (input) => {
    const limits = (input.placement.replicaScheduling?.clusterReplicaLimits ?? []).map(({ maxReplicas: _max, ...rest }) => rest);
    const mins = limits.reduce((s, l) => s + (l.minReplicas ?? 0), 0) * input.clusters.length;
    if (mins > input.replicas) return;
    const plain = schedule({ ...input, placement: { ...input.placement, replicaScheduling: { ...input.placement.replicaScheduling, clusterReplicaLimits: [] } } });
    if (!plain.ok) return;
    checked++;
    const r = schedule({ ...input, placement: { ...input.placement, replicaScheduling: { ...input.placement.replicaScheduling, clusterReplicaLimits: limits } } });
    assert.ok(r.ok, r.ok ? '' : `${r.reason}: ${r.message}`);
  }), { numRuns: 500 });
  assert.ok(checked >= 30, `checked ${checked}`);
});

test('property: without limits the result is what it was (empty clusterReplicaLimits changes nothing)', () => {
  fc.assert(fc.property(inputArb, (input) => {
    const limited = { ...input, placement: { ...input.placement, replicaScheduling: { ...input.placement.replicaScheduling, clusterReplicaLimits: [] } } };
    assert.deepEqual(schedule(limited), schedule(input));
  }), { numRuns: 300 });
});
