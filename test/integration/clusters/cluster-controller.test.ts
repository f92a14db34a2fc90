// The cluster controller against real embedded apiservers: a host, and a
// member with the workload simulator registered as `warren member add` does.
// Probes every 200 ms with 600 ms thresholds: Ready with version and
// summaries; a stopped member turns NotReachable and tainted only after the
// failure threshold; restarted on the same port and data, it recovers and the
// taint goes; a workload's requests show in resourceSummary.allocated.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { ensureCrds, readCrdFiles } from '../../../src/kube/ensure-crds.ts';
import { CRDS_DIR } from '../../../src/warren.ts';
import { ensureMemberCluster } from '../../../src/up/register-members.ts';
import { startClusterController, type RunningClusterController } from '../../../src/controllers/clusters/start-cluster-controller.ts';
import type { Cluster } from '../../../src/core/propagation/karmada-types.ts';
import { eventually } from '../../helpers/poll.ts';

const PATH = '/apis/cluster.karmada.io/v1alpha1/clusters/m1';

describe('cluster controller with embedded members', { timeout: 120_000 }, () => {
  let dir: string;
  let host: RunningApiServer;
  let member: RunningApiServer | undefined;
  let upstream: Upstream;
  let controller: RunningClusterController;
  const read = async (): Promise<Cluster> => (await upstream.request<Cluster>('GET', PATH)).body;
  const ready = (c: Cluster) => c.status?.conditions?.find((x) => x.type === 'Ready');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'warren-clusters-'));
    host = await startApiServer({ port: 0 });
    upstream = createUpstream({ yaml: host.kubeconfig });
    await ensureCrds(upstream, readCrdFiles(CRDS_DIR).filter((crd) => crd.metadata.name === 'clusters.cluster.karmada.io'));
    member = await startApiServer({ port: 0, dataDir: join(dir, 'm1'), simulateWorkloads: true });
    await ensureMemberCluster(upstream, { name: 'm1', kubeconfig: member.kubeconfig, provider: 'warren', region: 'region-a', zone: 'region-a-a', labels: { location: 'region-a' } });
    controller = startClusterController({ upstream, probeIntervalMs: 200, failureThresholdMs: 600, successThresholdMs: 600, memberTimeoutMs: 1_000 });
    await controller.synced();
  });

  after(async () => {
    controller?.stop();
    await member?.stop().catch(() => undefined);
    upstream?.close();
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a healthy member is Ready, with version, nodes and allocatable, and no taints', async () => {
    const c = await eventually(async () => {
      const x = await read();
      return ready(x)?.status === 'True' && x.status?.nodeSummary ? x : undefined;
    }, 'm1 Ready', { timeoutMs: 20_000 });
    assert.equal(ready(c)?.reason, 'ClusterReady');
    assert.equal(ready(c)?.message, 'cluster is healthy and ready to accept workloads');
    assert.match(c.status?.kubernetesVersion ?? '', /^v1\.\d+/);
    assert.ok((c.status?.nodeSummary?.totalNum ?? 0) >= 1);
    assert.equal(c.status?.nodeSummary?.readyNum, c.status?.nodeSummary?.totalNum);
    assert.ok(c.status?.resourceSummary?.allocatable?.cpu);
    assert.deepEqual(c.spec.taints ?? [], []);
  });

  it('a workload\'s requests show as allocated', async () => {
    const m = createUpstream({ yaml: member!.kubeconfig });
    try {
      const r = await m.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '250m', memory: '64Mi' } } }] } } },
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const c = await eventually(async () => {
        const x = await read();
        return x.status?.resourceSummary?.allocated?.cpu === '500m' ? x : undefined;
      }, 'allocated to reach 500m cpu', { timeoutMs: 30_000 });
      assert.equal(c.status?.resourceSummary?.allocated?.memory, '128Mi');
      assert.equal(c.status?.resourceSummary?.allocated?.pods, '2');
    } finally {
      m.close();
    }
  });

  it('a stopped member turns NotReachable after the failure threshold, with the not-ready taint; it recovers', async () => {
    const port = Number(new URL(member!.url).port);
    const stoppedAt = Date.now();
    await member!.stop();
    member = undefined;
    const down = await eventually(async () => {
      const x = await read();
      return ready(x)?.status === 'False' ? x : undefined;
    }, 'm1 NotReady', { timeoutMs: 20_000 });
    assert.ok(Date.now() - stoppedAt >= 600, 'not before the failure threshold');
    assert.equal(ready(down)?.reason, 'ClusterNotReachable');
    assert.equal(ready(down)?.message, 'cluster is not reachable');
    const tainted = await eventually(async () => {
      const x = await read();
      return x.spec.taints?.some((t) => t.key === 'cluster.karmada.io/not-ready' && t.effect === 'NoSchedule') ? x : undefined;
    }, 'the not-ready taint', { timeoutMs: 10_000 });
    assert.ok(tainted.spec.taints?.[0]?.timeAdded, 'timeAdded is set');

    member = await startApiServer({ port, dataDir: join(dir, 'm1'), simulateWorkloads: true });
    const back = await eventually(async () => {
      const x = await read();
      return ready(x)?.status === 'True' && (x.spec.taints ?? []).length === 0 ? x : undefined;
    }, 'm1 Ready again and untainted', { timeoutMs: 20_000 });
    assert.equal(ready(back)?.reason, 'ClusterReady');
  });
});
