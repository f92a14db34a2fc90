// Cluster failover: evictions under NoExecute taints, as Karmada's taint manager
// decides them (helper.GetMatchingTolerations / GetMinTolerationTime).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultTolerations, evictions } from '../../../../../src/core/propagation/binding/failover.ts';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, type Cluster, type Taint, type Toleration } from '../../../../../src/core/propagation/karmada-types.ts';

const NOW = new Date('2024-05-01T12:00:00Z');
const ago = (seconds: number): string => new Date(NOW.getTime() - seconds * 1000).toISOString();

const cluster = (name: string, taints: Taint[] = []): Cluster =>
  ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec: { taints } });
const clustersOf = (...cs: Cluster[]): Map<string, Cluster> => new Map(cs.map((c) => [c.metadata.name ?? '', c]));
const notReady = (secondsAgo: number): Taint => ({ key: TAINT_NOT_READY, effect: 'NoExecute', timeAdded: ago(secondsAgo) });

describe('defaultTolerations', () => {
  it('adds the not-ready and unreachable tolerations to a policy that names none', () => {
    assert.deepEqual(defaultTolerations(undefined, 300), [
      { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  const table: Array<{ name: string; given: Toleration[]; addsNotReady: boolean; addsUnreachable: boolean }> = [
    { name: 'a NoExecute toleration for not-ready: only unreachable is added', given: [{ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }], addsNotReady: false, addsUnreachable: true },
    { name: 'a toleration with no effect names the key', given: [{ key: TAINT_UNREACHABLE, operator: 'Exists' }], addsNotReady: true, addsUnreachable: false },
    { name: 'a NoSchedule toleration does not count', given: [{ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoSchedule' }], addsNotReady: true, addsUnreachable: true },
    { name: 'an unrelated key does not count', given: [{ key: 'gpu', operator: 'Exists' }], addsNotReady: true, addsUnreachable: true },
    { name: 'both named: nothing added', given: [{ key: TAINT_NOT_READY, effect: 'NoExecute' }, { key: TAINT_UNREACHABLE }], addsNotReady: false, addsUnreachable: false },
  ];
  for (const t of table) {
    it(t.name, () => {
      const out = defaultTolerations(t.given, 60);
      assert.deepEqual(out.slice(0, t.given.length), t.given, 'the policy\'s own come first, unchanged');
      const added = out.slice(t.given.length).map((x) => x.key);
      assert.deepEqual(added, [...(t.addsNotReady ? [TAINT_NOT_READY] : []), ...(t.addsUnreachable ? [TAINT_UNREACHABLE] : [])]);
    });
  }

  it('does not mutate its input', () => {
    const given: Toleration[] = [{ key: 'gpu' }];
    defaultTolerations(given, 1);
    assert.deepEqual(given, [{ key: 'gpu' }]);
  });
});

describe('evictions', () => {
  const scheduled = [{ name: 'm1', replicas: 2 }, { name: 'm2', replicas: 1 }];

  // Issue 14 item 10: after a restart the taints are the previous process's until the cluster controller confirms them.
  it('a cluster whose health is not confirmed yet is not evicted, only looked at again within a second', () => {
    const clusters = clustersOf(cluster('m1', [notReady(3_600)]), cluster('m2', [notReady(3_600)]));
    assert.deepEqual(evictions(scheduled, clusters, [], NOW, () => false), { evict: [], recheckAfterMs: 1_000 });
    assert.deepEqual(evictions(scheduled, clusters, [], NOW, (c) => c === 'm2'), { evict: ['m2'], recheckAfterMs: 1_000 });
    assert.deepEqual(evictions(scheduled, clusters, [], NOW, () => true), { evict: ['m1', 'm2'] });
    // Without NoExecute taints there is nothing to confirm: no recheck.
    assert.deepEqual(evictions(scheduled, clustersOf(cluster('m1'), cluster('m2')), [], NOW, () => false), { evict: [] });
  });

  it('evicts from a cluster with an untolerated NoExecute taint, immediately', () => {
    const r = evictions(scheduled, clustersOf(cluster('m1', [{ key: 'broken', effect: 'NoExecute', timeAdded: ago(0) }]), cluster('m2')), [], NOW);
    assert.deepEqual(r, { evict: ['m1'] });
  });

  it('ignores NoSchedule and PreferNoSchedule taints, and clusters no longer known', () => {
    const r = evictions([...scheduled, { name: 'gone' }], clustersOf(cluster('m1', [{ key: 'a', effect: 'NoSchedule' }, { key: 'b', effect: 'PreferNoSchedule' }]), cluster('m2')), [], NOW);
    assert.deepEqual(r, { evict: [] });
  });

  it('a toleration without tolerationSeconds tolerates forever', () => {
    const r = evictions(scheduled, clustersOf(cluster('m1', [notReady(10_000)]), cluster('m2')), [{ key: TAINT_NOT_READY, operator: 'Exists' }], NOW);
    assert.deepEqual(r, { evict: [] });
  });

  it('while tolerationSeconds runs, nothing is evicted and the time left is the recheck', () => {
    const tolerations = defaultTolerations([], 300);
    const r = evictions(scheduled, clustersOf(cluster('m1', [notReady(100)]), cluster('m2', [{ key: TAINT_UNREACHABLE, effect: 'NoExecute', timeAdded: ago(250) }])), tolerations, NOW);
    assert.deepEqual(r, { evict: [], recheckAfterMs: 50_000 });
  });

  it('once tolerationSeconds has passed since the taint was added, the cluster is evicted', () => {
    const tolerations = defaultTolerations([], 300);
    const r = evictions(scheduled, clustersOf(cluster('m1', [notReady(300)]), cluster('m2', [notReady(299)])), tolerations, NOW);
    assert.deepEqual(r, { evict: ['m1'], recheckAfterMs: 1000 });
  });

  it('tolerationSeconds of zero or less evicts at once', () => {
    for (const seconds of [0, -5]) {
      const r = evictions(scheduled, clustersOf(cluster('m1', [notReady(0)]), cluster('m2')), [{ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds }], NOW);
      assert.deepEqual(r.evict, ['m1'], `tolerationSeconds ${seconds}`);
    }
  });

  it('one untolerated taint among tolerated ones evicts', () => {
    const r = evictions(scheduled, clustersOf(cluster('m1', [notReady(1), { key: 'x', value: 'y', effect: 'NoExecute' }]), cluster('m2')), [{ key: TAINT_NOT_READY, operator: 'Exists' }], NOW);
    assert.deepEqual(r.evict, ['m1']);
  });

  it('the first toleration that matches a taint decides, as in Karmada (a later, longer or endless one does not extend it)', () => {
    const own: Toleration[] = [{ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { operator: 'Exists' }];
    const r = evictions(scheduled, clustersOf(cluster('m1', [notReady(120)]), cluster('m2')), own, NOW);
    assert.deepEqual(r.evict, ['m1']);
    const reversed = evictions(scheduled, clustersOf(cluster('m1', [notReady(120)]), cluster('m2')), [own[1]!, own[0]!], NOW);
    assert.deepEqual(reversed, { evict: [] });
  });

  it('property: with the default tolerations, a not-ready taint evicts exactly when its age reaches the toleration', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (age, seconds) => {
      const r = evictions([{ name: 'm1' }], clustersOf(cluster('m1', [notReady(age)])), defaultTolerations(undefined, seconds), NOW);
      if (age >= seconds) return r.evict.length === 1 && r.recheckAfterMs === undefined;
      return r.evict.length === 0 && r.recheckAfterMs === (seconds - age) * 1000;
    }));
  });
});
