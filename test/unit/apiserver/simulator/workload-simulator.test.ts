import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startWorkloadSimulator, type WorkloadSimulator, type WorkloadSimulatorOptions } from '../../../../src/apiserver/simulator/start-workload-simulator.ts';
import { DEFS } from '../../../../src/apiserver/simulator/sim-context.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { FakeResourceApi, type FakeOptions } from '../../../helpers/fake-resource-api.ts';
import { waitFor } from './wait-for.ts';

const NS = 'default';
let running: WorkloadSimulator | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

function start(fake: FakeOptions = {}, options: WorkloadSimulatorOptions = {}): FakeResourceApi {
  const api = new FakeResourceApi(fake);
  running = startWorkloadSimulator(api, { podStartDelayMs: 20, jobPodRunMs: 30, heartbeatIntervalMs: 0, ...options });
  return api;
}

function template(image: string, labels: Record<string, string> = { app: 'web' }) {
  return { metadata: { labels }, spec: { containers: [{ name: 'main', image }] } };
}

function deployment(name: string, replicas: number, image = 'nginx:1.27', extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name, namespace: NS }, spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: template(image), ...extra } };
}

const statusOf = (obj: KubeObject) => (obj.status ?? {}) as Record<string, any>;
const condition = (obj: KubeObject, type: string) => (statusOf(obj).conditions as any[] | undefined)?.find((c) => c.type === type);
const podsOwnedBy = (api: FakeResourceApi, uid: string | undefined) => api.items(DEFS.pods, NS).filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === uid));

function assertDeploymentReady(api: FakeResourceApi, name: string, replicas: number): KubeObject {
  const d = api.get(DEFS.deployments, NS, name);
  const s = statusOf(d);
  assert.equal(s.observedGeneration, d.metadata.generation);
  assert.equal(s.replicas, replicas);
  assert.equal(s.updatedReplicas, replicas);
  assert.equal(s.readyReplicas, replicas);
  assert.equal(s.availableReplicas, replicas);
  assert.equal(condition(d, 'Available')?.reason, 'MinimumReplicasAvailable');
  assert.equal(condition(d, 'Progressing')?.reason, 'NewReplicaSetAvailable');
  return d;
}

function replicaSetsOf(api: FakeResourceApi, d: KubeObject): KubeObject[] {
  return api.items(DEFS.replicasets, NS).filter((rs) => rs.metadata.ownerReferences?.some((r) => r.uid === d.metadata.uid && r.controller));
}

describe('workload simulator', () => {
  it('creates ready kwok-style nodes', async () => {
    const api = start({}, { nodes: 2, kubeletVersion: 'v1.33.1' });
    const nodes = await waitFor(() => {
      const list = api.items(DEFS.nodes);
      assert.equal(list.length, 2);
      return list;
    });
    const node = nodes.find((n) => n.metadata.name === 'sim-node-1')!;
    assert.equal(node.metadata.labels?.['kubernetes.io/hostname'], 'sim-node-1');
    assert.equal(node.metadata.labels?.['kubernetes.io/os'], 'linux');
    assert.equal(node.metadata.labels?.['node.kubernetes.io/instance-type'], 'kwok');
    const s = statusOf(node);
    assert.deepEqual(s.capacity, { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' });
    assert.equal(s.nodeInfo.kubeletVersion, 'v1.33.1');
    assert.equal(condition(node, 'Ready')?.status, 'True');
    assert.equal(condition(node, 'Ready')?.reason, 'KubeletReady');
    assert.equal(condition(node, 'MemoryPressure')?.status, 'False');
  });

  for (const delivery of ['async', 'sync'] as const) {
    it(`brings a Deployment to Ready with its pods spread over the nodes (${delivery} watch delivery)`, async () => {
      const api = start({ delivery });
      api.create(DEFS.deployments, NS, deployment('web', 3));
      const d = await waitFor(() => assertDeploymentReady(api, 'web', 3));
      assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
      assert.equal(condition(d, 'Progressing')?.message, `ReplicaSet "${replicaSetsOf(api, d)[0]?.metadata.name}" has successfully progressed.`);
      assert.equal(condition(d, 'Available')?.message, 'Deployment has minimum availability.');

      const [rs] = replicaSetsOf(api, d);
      assert.ok(rs);
      const hash = rs.metadata.labels?.['pod-template-hash'];
      assert.match(hash ?? '', /^[bcdfghjklmnpqrstvwxz2456789]+$/);
      assert.equal(rs.metadata.name, `web-${hash}`);
      assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
      assert.equal(statusOf(rs).readyReplicas, 3);

      const pods = podsOwnedBy(api, rs.metadata.uid);
      assert.equal(pods.length, 3);
      for (const pod of pods) {
        assert.match(pod.metadata.name ?? '', new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
        const ps = statusOf(pod);
        assert.equal(ps.phase, 'Running');
        assert.equal(ps.qosClass, 'BestEffort');
        assert.match(ps.podIP, /^10\.\d+\.\d+\.\d+$/);
        assert.equal(ps.containerStatuses[0].ready, true);
        assert.equal(ps.containerStatuses[0].started, true);
        assert.ok(ps.containerStatuses[0].state.running.startedAt);
        for (const type of ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready']) assert.equal(condition(pod, type)?.status, 'True', type);
      }
      const nodes = new Set(pods.map((p) => (p.spec as { nodeName: string }).nodeName));
      assert.deepEqual([...nodes].sort(), ['sim-node-1', 'sim-node-2', 'sim-node-3']);
      assert.equal(new Set(pods.map((p) => statusOf(p).podIP)).size, 3);
    });
  }

  it('stops writing once everything is ready (no status write loops)', async () => {
    const api = start();
    api.create(DEFS.deployments, NS, deployment('web', 2));
    await waitFor(() => assertDeploymentReady(api, 'web', 2));
    const before = api.writes;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(api.writes, before);
  });

  it('scales up and down', async () => {
    const api = start();
    api.create(DEFS.deployments, NS, deployment('web', 2));
    await waitFor(() => assertDeploymentReady(api, 'web', 2));
    for (const replicas of [5, 1, 0, 2]) {
      const d = api.get(DEFS.deployments, NS, 'web');
      api.update(DEFS.deployments, NS, 'web', { ...d, spec: { ...(d.spec as object), replicas } });
      const ready = await waitFor(() => {
        const now = api.get(DEFS.deployments, NS, 'web');
        assert.equal(statusOf(now).observedGeneration, now.metadata.generation);
        assert.equal(statusOf(now).availableReplicas ?? 0, replicas);
        assert.equal(statusOf(now).replicas ?? 0, replicas);
        return now;
      });
      const rsList = replicaSetsOf(api, ready);
      assert.equal(rsList.length, 1, 'scaling must not create a new ReplicaSet');
      assert.equal(podsOwnedBy(api, rsList[0]?.metadata.uid).length, replicas);
    }
  });

  it('rolls out a template change to a new ReplicaSet and keeps revisionHistoryLimit', async () => {
    const api = start();
    api.create(DEFS.deployments, NS, deployment('web', 4, 'nginx:1', { revisionHistoryLimit: 1 }));
    await waitFor(() => assertDeploymentReady(api, 'web', 4));
    // Replay ReplicaSet writes in order: desired 4 with maxSurge 25% (1) never runs more than 5 pods' worth.
    const specReplicas = new Map<string, number>();
    let maxTotal = 0;
    api.watch(DEFS.replicasets, { resourceVersion: '0' }, (e) => {
      if (e.type === 'DELETED') specReplicas.delete(e.object.metadata.name ?? '');
      else specReplicas.set(e.object.metadata.name ?? '', (e.object.spec as { replicas: number }).replicas);
      maxTotal = Math.max(maxTotal, [...specReplicas.values()].reduce((a, b) => a + b, 0));
    });
    for (const [i, image] of ['nginx:2', 'nginx:3'].entries()) {
      const d = api.get(DEFS.deployments, NS, 'web');
      api.update(DEFS.deployments, NS, 'web', { ...d, spec: { ...(d.spec as object), template: template(image) } });
      const done = await waitFor(() => {
        const now = assertDeploymentReady(api, 'web', 4);
        assert.equal(now.metadata.annotations?.['deployment.kubernetes.io/revision'], String(i + 2));
        const rsList = replicaSetsOf(api, now);
        const current = rsList.find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === String(i + 2));
        assert.ok(current);
        for (const rs of rsList) if (rs !== current) assert.equal((rs.spec as { replicas: number }).replicas, 0);
        assert.equal(rsList.length, 2, 'one old ReplicaSet kept (revisionHistoryLimit: 1)');
        const pods = podsOwnedBy(api, current.metadata.uid);
        assert.equal(pods.length, 4);
        assert.ok(pods.every((p) => (p.spec as any).containers[0].image === image));
        return now;
      });
      assert.ok(done);
    }
    const allPods = api.items(DEFS.pods, NS);
    assert.equal(allPods.length, 4, 'old pods are gone');
    assert.equal(maxTotal, 5);
  });

  it('survives injected update conflicts', async () => {
    const api = start({ conflictRate: 0.3 });
    api.create(DEFS.deployments, NS, deployment('web', 3));
    await waitFor(() => assertDeploymentReady(api, 'web', 3), 10_000);
  });

  it('creates StatefulSet pods in ordinal order with revisions', async () => {
    const api = start();
    const order: string[] = [];
    api.watch(DEFS.pods, {}, (e) => { if (e.type === 'ADDED') order.push(e.object.metadata.name ?? ''); });
    api.create(DEFS.statefulsets, NS, { metadata: { name: 'db', namespace: NS }, spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('postgres:16', { app: 'db' }) } });
    const sts = await waitFor(() => {
      const now = api.get(DEFS.statefulsets, NS, 'db');
      const s = statusOf(now);
      assert.equal(s.readyReplicas, 3);
      assert.equal(s.availableReplicas, 3);
      assert.equal(s.currentReplicas, 3);
      assert.equal(s.updatedReplicas, 3);
      assert.equal(s.observedGeneration, now.metadata.generation);
      return now;
    });
    assert.deepEqual(order, ['db-0', 'db-1', 'db-2']);
    const s = statusOf(sts);
    assert.equal(s.currentRevision, s.updateRevision);
    const revisions = api.items(DEFS.revisions, NS);
    assert.equal(revisions.length, 1);
    assert.equal(revisions[0]?.metadata.name, s.updateRevision);
    assert.equal(revisions[0]?.revision, 1);
    const pod = api.get(DEFS.pods, NS, 'db-1');
    assert.equal(pod.metadata.labels?.['controller-revision-hash'], s.updateRevision);
    assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'db-1');
    assert.equal((pod.spec as any).hostname, 'db-1');
    assert.equal((pod.spec as any).subdomain, 'db');

    // A template change rolls every pod to the new revision; scaling down removes the highest ordinal.
    api.update(DEFS.statefulsets, NS, 'db', { ...sts, spec: { ...(sts.spec as object), replicas: 2, template: template('postgres:17', { app: 'db' }) } });
    await waitFor(() => {
      const now = statusOf(api.get(DEFS.statefulsets, NS, 'db'));
      assert.notEqual(now.updateRevision, s.updateRevision);
      assert.equal(now.currentRevision, now.updateRevision);
      assert.equal(now.updatedReplicas, 2);
      assert.equal(now.readyReplicas, 2);
      assert.deepEqual(api.items(DEFS.pods, NS).map((p) => p.metadata.name).sort(), ['db-0', 'db-1']);
      assert.ok(api.items(DEFS.pods, NS).every((p) => (p.spec as any).containers[0].image === 'postgres:17'));
    });
    assert.equal(api.items(DEFS.revisions, NS).length, 2);
  });

  it('runs one DaemonSet pod per matching node', async () => {
    const api = start();
    api.create(DEFS.daemonsets, NS, { metadata: { name: 'agent', namespace: NS }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent:1', { app: 'agent' }) } });
    await waitFor(() => {
      const s = statusOf(api.get(DEFS.daemonsets, NS, 'agent'));
      assert.equal(s.desiredNumberScheduled, 3);
      assert.equal(s.currentNumberScheduled, 3);
      assert.equal(s.numberReady, 3);
      assert.equal(s.numberAvailable, 3);
      assert.equal(s.updatedNumberScheduled, 3);
      assert.equal(s.numberMisscheduled, 0);
    });
    const nodes = api.items(DEFS.pods, NS).map((p) => (p.spec as { nodeName: string }).nodeName).sort();
    assert.deepEqual(nodes, ['sim-node-1', 'sim-node-2', 'sim-node-3']);

    // Restrict to one node by label.
    const node = api.get(DEFS.nodes, '', 'sim-node-2');
    api.update(DEFS.nodes, '', 'sim-node-2', { ...node, metadata: { ...node.metadata, labels: { ...node.metadata.labels, role: 'edge' } } });
    const ds = api.get(DEFS.daemonsets, NS, 'agent');
    const spec = ds.spec as any;
    api.update(DEFS.daemonsets, NS, 'agent', { ...ds, spec: { ...spec, template: { ...spec.template, spec: { ...spec.template.spec, nodeSelector: { role: 'edge' } } } } });
    await waitFor(() => {
      const s = statusOf(api.get(DEFS.daemonsets, NS, 'agent'));
      assert.equal(s.desiredNumberScheduled, 1);
      assert.equal(s.numberReady, 1);
      const pods = api.items(DEFS.pods, NS);
      assert.deepEqual(pods.map((p) => (p.spec as { nodeName: string }).nodeName), ['sim-node-2']);
    });
  });

  it('completes a Job after completions pods succeed', async () => {
    const api = start();
    api.create(DEFS.jobs, NS, { metadata: { name: 'batch', namespace: NS }, spec: { completions: 3, parallelism: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } });
    let maxActive = 0;
    const job = await waitFor(() => {
      const now = api.get(DEFS.jobs, NS, 'batch');
      maxActive = Math.max(maxActive, statusOf(now).active ?? 0);
      assert.equal(condition(now, 'Complete')?.status, 'True');
      return now;
    });
    const s = statusOf(job);
    assert.equal(s.succeeded, 3);
    assert.equal(s.active, undefined);
    assert.ok(s.startTime);
    assert.ok(s.completionTime);
    assert.ok(maxActive <= 2, 'parallelism bounds active pods');
    for (const type of ['SuccessCriteriaMet', 'Complete']) {
      assert.equal(condition(job, type)?.reason, 'CompletionsReached');
      assert.equal(condition(job, type)?.message, 'Reached expected number of succeeded pods');
    }
    const pods = podsOwnedBy(api, job.metadata.uid);
    assert.equal(pods.length, 3);
    assert.ok(pods.every((p) => statusOf(p).phase === 'Succeeded'));
    assert.ok(pods.every((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === 'batch'));
  });

  it('completes an Indexed Job with one success per index', async () => {
    const api = start();
    api.create(DEFS.jobs, NS, { metadata: { name: 'idx', namespace: NS }, spec: { completions: 3, parallelism: 3, completionMode: 'Indexed', template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } });
    const job = await waitFor(() => {
      const now = api.get(DEFS.jobs, NS, 'idx');
      assert.equal(condition(now, 'Complete')?.status, 'True');
      return now;
    });
    assert.equal(statusOf(job).completedIndexes, '0-2');
    const indexes = podsOwnedBy(api, job.metadata.uid).map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']).sort();
    assert.deepEqual(indexes, ['0', '1', '2']);
  });

  // Issue 14: the conformance GC spec "should delete pods created by rc when not orphaning" needs RC pods.
  it('runs a ReplicationController: its pods, their owner, status, scale down', async () => {
    const api = start();
    api.create(DEFS.replicationcontrollers, NS, { metadata: { name: 'rc' }, spec: { replicas: 3, selector: { app: 'web' }, template: template('nginx:1.27') } });
    const rc = await waitFor(() => {
      const now = api.get(DEFS.replicationcontrollers, NS, 'rc');
      assert.equal(statusOf(now).readyReplicas, 3);
      assert.equal(statusOf(now).availableReplicas, 3);
      assert.equal(statusOf(now).observedGeneration, now.metadata.generation);
      return now;
    });
    const pods = podsOwnedBy(api, rc.metadata.uid);
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.deepEqual(p.metadata.ownerReferences?.map((r) => [r.apiVersion, r.kind, r.name, r.controller]), [['v1', 'ReplicationController', 'rc', true]]);
      assert.match(p.metadata.name ?? '', /^rc-[a-z0-9]{5}$/);
    }
    api.update(DEFS.replicationcontrollers, NS, 'rc', { ...rc, spec: { ...(rc.spec as object), replicas: 1 } });
    await waitFor(() => {
      assert.equal(podsOwnedBy(api, rc.metadata.uid).length, 1);
      assert.equal(statusOf(api.get(DEFS.replicationcontrollers, NS, 'rc')).replicas, 1);
    });
  });

  it('follows owner deletion (garbage collection by the registry) without errors', async () => {
    const lines: string[] = [];
    const api = start({}, { log: (line) => lines.push(line) });
    api.create(DEFS.deployments, NS, deployment('web', 3));
    await waitFor(() => assertDeploymentReady(api, 'web', 3));
    api.delete(DEFS.deployments, NS, 'web');
    assert.equal(api.items(DEFS.pods, NS).length, 0);
    api.create(DEFS.deployments, NS, deployment('web', 1));
    await waitFor(() => assertDeploymentReady(api, 'web', 1));
    assert.equal(api.items(DEFS.pods, NS).length, 1);
    assert.deepEqual(lines.filter((l) => l.includes('failed')), []);
  });

  it('relists and carries on after its watches expire', async () => {
    const api = start();
    api.create(DEFS.deployments, NS, deployment('a', 1));
    await waitFor(() => assertDeploymentReady(api, 'a', 1));
    api.expireWatches();
    // Changes while no watch is open must be picked up by the relist.
    api.delete(DEFS.deployments, NS, 'a');
    api.create(DEFS.deployments, NS, deployment('b', 2));
    await waitFor(() => assertDeploymentReady(api, 'b', 2));
    assert.equal(api.items(DEFS.pods, NS).length, 2);
  });

  it('heartbeats the fake nodes', async () => {
    const api = start({}, { heartbeatIntervalMs: 20 });
    const first = Number(api.get(DEFS.nodes, '', 'sim-node-1').metadata.resourceVersion);
    await waitFor(() => assert.ok(Number(api.get(DEFS.nodes, '', 'sim-node-1').metadata.resourceVersion) > first));
  });

  it('schedules and starts a bare pod', async () => {
    const api = start();
    api.create(DEFS.pods, NS, { metadata: { name: 'solo', namespace: NS }, spec: { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }] } });
    await waitFor(() => {
      const pod = api.get(DEFS.pods, NS, 'solo');
      assert.match((pod.spec as any).nodeName, /^sim-node-\d$/);
      assert.equal(statusOf(pod).phase, 'Running');
      assert.equal(statusOf(pod).qosClass, 'Guaranteed');
    });
  });
});
