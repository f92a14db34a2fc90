import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reconcileCluster, type ClusterMemory, type ClusterReconcileDeps } from '../../../../src/controllers/clusters/reconcile-cluster.ts';
import type { HostClient } from '../../../../src/controllers/clusters/host-client.ts';
import type { Cluster } from '../../../../src/core/propagation/karmada-types.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';
import type { ProbeOutcome } from '../../../../src/controllers/clusters/ready-condition.ts';

function world(options: { outcome: ProbeOutcome; secret?: boolean }) {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const clusters = new Map<string, Cluster>();
  clusters.set('m1', { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1', resourceVersion: '1' }, spec: { syncMode: 'Push', secretRef: { namespace: 'warren-system', name: 'cluster-m1' } } });
  const writes: string[] = [];
  const events: string[] = [];
  let probes = 0;
  const host: HostClient = {
    getCluster: async (name) => structuredClone(clusters.get(name)),
    getSecret: async () => undefined,
    updateClusterStatus: async (c) => {
      writes.push('status');
      const before = clusters.get(c.metadata.name ?? '')!;
      const stored = { ...before, metadata: { ...before.metadata, resourceVersion: String(Number(before.metadata.resourceVersion) + 1) }, status: c.status };
      clusters.set(c.metadata.name ?? '', stored);
      return structuredClone(stored);
    },
    updateCluster: async (c) => {
      writes.push('spec');
      const before = clusters.get(c.metadata.name ?? '')!;
      const stored = { ...c, metadata: { ...c.metadata, resourceVersion: String(Number(before.metadata.resourceVersion) + 1) }, status: before.status };
      clusters.set(c.metadata.name ?? '', stored as Cluster);
      return structuredClone(stored as Cluster);
    },
  };
  const state = { outcome: options.outcome };
  const memory = new Map<string, ClusterMemory>();
  const deps: ClusterReconcileDeps = {
    host,
    members: {
      clientFor: async () => (options.secret === false ? { error: 'secret warren-system/cluster-m1 not found' } : { upstream: {} as Upstream, fingerprint: 'f1' }),
      forget: () => undefined,
    },
    probes: {
      health: async () => { probes++; return state.outcome; },
      version: async () => 'v1.31.0',
      summary: async () => ({ nodeSummary: { totalNum: 1, readyNum: 1 }, resourceSummary: { allocatable: { cpu: '32' }, allocated: { cpu: '0', memory: '0', pods: '0' } } }),
    },
    memory,
    now: () => new Date(clock),
    probeIntervalMs: 200,
    successThresholdMs: 1_000,
    failureThresholdMs: 1_000,
    record: async (_c, type, reason) => { events.push(`${type} ${reason}`); },
  };
  return {
    deps, clusters, writes, events, state, memory,
    get probes() { return probes; },
    tick(ms: number) { clock += ms; },
    cluster: () => clusters.get('m1')!,
  };
}

describe('reconcileCluster', () => {
  it('a healthy member gets Ready, version, summary and no taints', async () => {
    const w = world({ outcome: { online: true, healthy: true } });
    const result = await reconcileCluster(w.deps, 'm1');
    const c = w.cluster();
    const ready = c.status?.conditions?.find((x) => x.type === 'Ready');
    assert.equal(ready?.status, 'True');
    assert.equal(ready?.reason, 'ClusterReady');
    assert.equal(c.status?.kubernetesVersion, 'v1.31.0');
    assert.deepEqual(c.status?.nodeSummary, { totalNum: 1, readyNum: 1 });
    assert.deepEqual(c.spec.taints ?? [], []);
    assert.equal(result.requeueAfterMs, 200);
    assert.deepEqual(w.events, ['Normal ClusterReady']);
  });

  // Issue 14 item 10: the engine's failover waits for this version before it trusts the Cluster's taints.
  it('records the version at which this process first confirmed the health, after its own writes; later passes keep it', async () => {
    const w = world({ outcome: { online: false, healthy: false } });
    assert.equal(w.memory.get('m1')?.confirmedAt, undefined);
    await reconcileCluster(w.deps, 'm1');
    assert.deepEqual(w.writes, ['status', 'spec']);
    assert.equal(w.memory.get('m1')?.confirmedAt, w.cluster().metadata.resourceVersion, 'the version after the status and the taints');
    const first = w.memory.get('m1')?.confirmedAt;
    w.state.outcome = { online: true, healthy: true };
    w.tick(5_000);
    await reconcileCluster(w.deps, 'm1');
    w.tick(5_000); // past the success threshold: Ready flips, the taints go
    await reconcileCluster(w.deps, 'm1');
    assert.notEqual(w.cluster().metadata.resourceVersion, first);
    assert.equal(w.memory.get('m1')?.confirmedAt, first);
  });

  it('with nothing to write, the version read is the confirmed one', async () => {
    const w = world({ outcome: { online: true, healthy: true } });
    await reconcileCluster(w.deps, 'm1');
    const memory = new Map<string, ClusterMemory>();
    await reconcileCluster({ ...w.deps, memory }, 'm1'); // a restarted controller, the member unchanged
    assert.equal(memory.get('m1')?.confirmedAt, w.cluster().metadata.resourceVersion);
  });

  it('an unreachable member is Ready False with the not-ready taint; version is not collected', async () => {
    const w = world({ outcome: { online: false, healthy: false } });
    await reconcileCluster(w.deps, 'm1');
    const c = w.cluster();
    assert.equal(c.status?.conditions?.[0]?.reason, 'ClusterNotReachable');
    assert.equal(c.status?.kubernetesVersion, undefined);
    assert.deepEqual(c.spec.taints?.map((t) => `${t.key}:${t.effect}`), ['cluster.karmada.io/not-ready:NoSchedule']);
  });

  it('a missing secret is StatusCollectionFailed', async () => {
    const w = world({ outcome: { online: true, healthy: true }, secret: false });
    await reconcileCluster(w.deps, 'm1');
    const ready = w.cluster().status?.conditions?.[0];
    assert.equal(ready?.status, 'False');
    assert.equal(ready?.reason, 'StatusCollectionFailed');
    assert.match(ready?.message ?? '', /secret warren-system\/cluster-m1 not found/);
  });

  it('a failure is written only after the failure threshold, and the taint follows', async () => {
    const w = world({ outcome: { online: true, healthy: true } });
    await reconcileCluster(w.deps, 'm1');
    w.state.outcome = { online: false, healthy: false };
    for (let t = 0; t < 4; t++) {
      w.tick(250);
      await reconcileCluster(w.deps, 'm1');
      assert.equal(w.cluster().status?.conditions?.[0]?.status, 'True', `still True after ${(t + 1) * 250} ms`);
    }
    w.tick(250);
    await reconcileCluster(w.deps, 'm1');
    assert.equal(w.cluster().status?.conditions?.[0]?.status, 'False');
    assert.equal(w.cluster().spec.taints?.[0]?.key, 'cluster.karmada.io/not-ready');
    w.state.outcome = { online: true, healthy: true };
    w.tick(250);
    await reconcileCluster(w.deps, 'm1');
    assert.equal(w.cluster().status?.conditions?.[0]?.status, 'False', 'recovery waits for the success threshold');
    w.tick(1_000);
    await reconcileCluster(w.deps, 'm1');
    assert.equal(w.cluster().status?.conditions?.[0]?.status, 'True');
    assert.deepEqual(w.cluster().spec.taints, []);
  });

  it('does not probe again within the interval (its own writes come back as events)', async () => {
    const w = world({ outcome: { online: true, healthy: true } });
    await reconcileCluster(w.deps, 'm1');
    const writes = w.writes.length;
    w.tick(50);
    const again = await reconcileCluster(w.deps, 'm1');
    assert.equal(w.probes, 1);
    assert.equal(w.writes.length, writes, 'nothing new to write');
    assert.equal(again.requeueAfterMs, 150);
  });

  it('a deleted cluster is forgotten', async () => {
    const w = world({ outcome: { online: true, healthy: true } });
    await reconcileCluster(w.deps, 'm1');
    w.clusters.delete('m1');
    assert.deepEqual(await reconcileCluster(w.deps, 'm1'), {});
    assert.equal(w.memory.has('m1'), false);
  });
});
