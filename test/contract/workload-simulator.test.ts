// The workload simulator (`--simulate-workloads`) brings a Deployment to ready,
// as kwok does. Against a real cluster the cluster's own controllers do this,
// so the test runs there too when WARREN_CONTRACT_KUBECONFIG is set.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractServer, EXTERNAL_KUBECONFIG } from '../helpers/contract-server.ts';
import { startWarrenApiserver } from '../helpers/warren-process.ts';
import type { KubeHttp } from '../helpers/kube-http.ts';
import { testNamespaces } from '../helpers/test-namespace.ts';
import { deployment } from '../fixtures/objects.ts';
import { eventually } from '../helpers/poll.ts';

describe('workload simulator', { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => { for (const c of cleanups.reverse()) await c().catch(() => undefined); });

  async function server(): Promise<KubeHttp> {
    if (EXTERNAL_KUBECONFIG) {
      const s = await contractServer();
      return s.http;
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'warren-sim-'));
    const proc = await startWarrenApiserver(dataDir, { simulateWorkloads: true });
    cleanups.push(async () => { await proc.kill('SIGTERM'); rmSync(dataDir, { recursive: true, force: true }); });
    return proc.http;
  }

  it('a Deployment reaches readyReplicas with a ReplicaSet and pods it owns', async (t) => {
    const http = await server();
    // Pods run only where there are nodes: a control plane without kubelets (the real tier's) has none.
    const nodes = await http.get('/api/v1/nodes');
    if (EXTERNAL_KUBECONFIG && (nodes.body?.items ?? []).length === 0) return t.skip('the cluster has no nodes to run pods on');
    const namespaces = testNamespaces(http);
    cleanups.push(() => namespaces.cleanup());
    const ns = await namespaces.create('sim');
    const created = await http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('app', { replicas: 2 }));
    assert.equal(created.status, 201);
    const dep = await eventually(async () => {
      const d = (await http.get(`/apis/apps/v1/namespaces/${ns}/deployments/app`)).body;
      return d.status?.readyReplicas === 2 && d.status?.observedGeneration === d.metadata.generation ? d : undefined;
    }, 'deployment ready', { timeoutMs: 90_000, intervalMs: 500 });
    assert.equal(dep.status.replicas, 2);
    assert.equal(dep.status.availableReplicas, 2);
    const available = dep.status.conditions.find((c: any) => c.type === 'Available');
    assert.equal(available.status, 'True');
    const rs = (await http.get(`/apis/apps/v1/namespaces/${ns}/replicasets?labelSelector=app%3Dapp`)).body.items;
    assert.equal(rs.length, 1);
    assert.equal(rs[0].metadata.ownerReferences[0].uid, dep.metadata.uid);
    const pods = (await http.get(`/api/v1/namespaces/${ns}/pods?labelSelector=app%3Dapp`)).body.items;
    assert.equal(pods.length, 2);
    for (const p of pods) {
      assert.equal(p.status.phase, 'Running');
      assert.ok(p.spec.nodeName, 'scheduled');
      assert.equal(p.metadata.ownerReferences[0].uid, rs[0].metadata.uid);
    }
  });
});
