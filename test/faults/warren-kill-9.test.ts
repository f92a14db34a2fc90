// Fault: Warren itself (`warren serve`, a child process) is killed with kill -9
// while tenants and propagation run against an embedded upstream (also a child)
// and two embedded members, then started again on the same port:
//   - no tenant loses an object; no credential changes (the tenant's old
//     kubeconfig works, the CA and signing keys in upstream Secrets are reused);
//   - templates written while Warren was down propagate after the restart;
//   - every member holds exactly one copy of each template.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { registerMembers } from '../../src/up/register-members.ts';
import { freePort, startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { startWarrenServe, type WarrenServeProcess } from '../helpers/fault-warren-serve.ts';
import { onboardTenant, faultConfigMap } from '../helpers/fault-tenant.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';

const policy = {
  apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'faults-everywhere' },
  spec: {
    resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { matchLabels: { fault: 'yes' } } }],
    placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
  },
};

describe('fault: Warren killed with kill -9 and restarted', { timeout: 180_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'warren-fault-kill9-'));
  let host: WarrenProcess;
  let admin: Upstream;
  const members: RunningApiServer[] = [];
  const memberHttp: KubeHttp[] = [];
  let warren: WarrenServeProcess | undefined;
  let port = 0;

  before(async () => {
    host = await startWarrenApiserver(join(root, 'host'));
    admin = createUpstream({ yaml: host.kubeconfig });
    for (let i = 0; i < 2; i++) {
      const m = await startApiServer({ port: 0 });
      members.push(m);
      memberHttp.push(new KubeHttp(m.kubeconfig));
    }
    port = await freePort();
    // Warren installs the CRDs (Cluster among them): members are registered after it is up.
    warren = await startWarrenServe(host.kubeconfigPath, port);
    await registerMembers(admin, members.map((m) => ({ kubeconfig: m.kubeconfig })));
  });
  after(async () => {
    await warren?.kill('SIGKILL');
    admin?.close();
    for (const m of members) await m.stop();
    await host?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  /** Names of the tenant's managed ConfigMaps on a member (fault=yes), with duplicates kept. */
  async function onMember(i: number, upstreamNs: string): Promise<string[]> {
    const res = await memberHttp[i]!.get(`/api/v1/namespaces/${upstreamNs}/configmaps?labelSelector=fault%3Dyes`);
    return res.status === 200 ? res.body.items.map((o: { metadata: { name: string } }) => o.metadata.name).sort() : [];
  }

  async function warrenSecrets(): Promise<Map<string, string>> {
    const res = await admin.request<{ items: Array<{ metadata: { name: string }; data?: Record<string, string> }> }>('GET', '/api/v1/namespaces/warren-system/secrets');
    assert.equal(res.status, 200);
    return new Map(res.body.items.map((s) => [s.metadata.name, JSON.stringify(s.data ?? {})]));
  }

  it('loses nothing, re-issues no credential, and propagates what was written while it was down, once per member', async () => {
    const acme = await onboardTenant(admin, 'acme', { clusters: { names: ['member1', 'member2'] } }, 40_000);
    const ns = `${acme.id}-app`;
    assert.equal((await acme.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } })).status, 201);
    assert.equal((await acme.http.post('/apis/policy.karmada.io/v1alpha1/namespaces/app/propagationpolicies', policy)).status, 201);
    for (const name of ['before-1', 'before-2']) {
      assert.equal((await acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap(name))).status, 201);
    }
    for (const i of [0, 1]) {
      await eventually(async () => (await onMember(i, ns)).join() === 'before-1,before-2', `both templates on member${i + 1}`, { timeoutMs: 30_000 });
    }
    const secretsBefore = await warrenSecrets();
    const tenantBefore = (await acme.http.get('/api/v1/namespaces/app/configmaps?labelSelector=fault%3Dyes')).body.items.length;

    await warren!.kill('SIGKILL');
    // Written while Warren is down: straight to the upstream, as Warren would have stored it.
    const down = await admin.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'while-down', labels: { fault: 'yes', 'tenancy.warren.dev/tenant': acme.id } }, data: { at: 'down' },
    });
    assert.equal(down.status, 201, JSON.stringify(down.body));

    warren = await startWarrenServe(host.kubeconfigPath, port);
    // The old kubeconfig (client certificate, gateway CA) still works.
    const after = await eventually(async () => {
      const r = await acme.http.get('/api/v1/namespaces/app/configmaps?labelSelector=fault%3Dyes');
      return r.status === 200 ? r : undefined;
    }, 'the old tenant kubeconfig to work against the restarted Warren');
    assert.equal(after.body.items.length, tenantBefore + 1);
    for (const i of [0, 1]) {
      await eventually(async () => (await onMember(i, ns)).join() === 'before-1,before-2,while-down', `the template written while down on member${i + 1}`, { timeoutMs: 40_000 });
    }
    // A write after the restart propagates too, and nothing is doubled.
    assert.equal((await acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap('after-restart'))).status, 201);
    for (const i of [0, 1]) {
      await eventually(async () => (await onMember(i, ns)).join() === 'after-restart,before-1,before-2,while-down', `every template exactly once on member${i + 1}`, { timeoutMs: 30_000 });
      const all = await memberHttp[i]!.get(`/api/v1/configmaps?labelSelector=fault%3Dyes`);
      assert.equal(all.body.items.length, 4, `member${i + 1} holds no copy elsewhere`);
    }
    // Every credential Secret is the one from before: the CA, signing keys and kubeconfigs were reused.
    const secretsAfter = await warrenSecrets();
    for (const [name, data] of secretsBefore) assert.equal(secretsAfter.get(name), data, `Secret warren-system/${name} changed across the restart`);
  });
});
