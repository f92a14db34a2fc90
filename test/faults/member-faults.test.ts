// Fault: one of three member clusters misbehaves, reached through an HTTPS
// fault proxy (test/helpers/fault-member-proxy.ts) that Warren was registered
// with, while a tenant propagates Deployments to all three:
//   (a) the member answers 500 to writes: the others get their copies; its Work
//       shows Applied False with the failure in tenant terms; the binding says
//       applied false for it and FullyApplied False; healed, it converges;
//   (b) the member is slow (3 s per workload response): the others are applied
//       at once, and another binding is not held up by it;
//   (c) the member is down: a Divided binding's replicas move to the others, a
//       Duplicated one drops it after the toleration; the Work and the binding
//       show the failure; once it is back and Ready, nothing is pulled back.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { startWarren, type RunningWarren } from '../../src/warren.ts';
import { registerMembers } from '../../src/up/register-members.ts';
import type { KubeObject } from '../../src/core/types.ts';
import type { ResourceBinding, Work } from '../../src/core/propagation/karmada-types.ts';
import { startMemberFaultProxy, type MemberFaultProxy } from '../helpers/fault-member-proxy.ts';
import { onboardTenant } from '../helpers/fault-tenant.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';

const MEMBERS = ['member1', 'member2', 'member3'];
const DEPLOYMENTS = '/apis/apps/v1/namespaces/app/deployments';
const POLICIES = '/apis/policy.karmada.io/v1alpha1/namespaces/app/propagationpolicies';

function deployment(name: string, replicas = 1): KubeObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } },
  };
}

/** A policy for the named Deployments over all three members; tolerations short, so failover happens within the test. */
function policy(name: string, deployments: string[], { divided = false, tolerationSeconds = 2 } = {}): KubeObject {
  const tolerations = ['cluster.karmada.io/not-ready', 'cluster.karmada.io/unreachable'].map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds }));
  const replicaScheduling = divided
    ? { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { staticWeightList: MEMBERS.map((m) => ({ targetCluster: { clusterNames: [m] }, weight: 1 })) } }
    : { replicaSchedulingType: 'Duplicated' };
  return {
    apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name },
    spec: {
      resourceSelectors: deployments.map((d) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: d })),
      placement: { clusterAffinity: { clusterNames: MEMBERS }, clusterTolerations: tolerations, replicaScheduling },
    },
  };
}

describe('fault: a member cluster returning errors, slow, or down', { timeout: 120_000 }, () => {
  let host: RunningApiServer;
  let admin: Upstream;
  let warren: RunningWarren;
  let proxy: MemberFaultProxy;
  const members: RunningApiServer[] = [];
  /** Direct clients to each member (never through the proxy): what is really there. */
  const direct: KubeHttp[] = [];
  let acme: Awaited<ReturnType<typeof onboardTenant>>;

  before(async () => {
    host = await startApiServer({ port: 0 });
    admin = createUpstream({ yaml: host.kubeconfig });
    for (let i = 0; i < 3; i++) {
      const m = await startApiServer({ port: 0, simulateWorkloads: true, clusterName: MEMBERS[i]! });
      members.push(m);
      direct.push(new KubeHttp(m.kubeconfig));
    }
    proxy = await startMemberFaultProxy(members[2]!.kubeconfig, 'member3');
    warren = await startWarren({
      upstream: createUpstream({ yaml: host.kubeconfig }), host: '127.0.0.1', port: 0, log: () => undefined,
      clusterProbeIntervalMs: 250, clusterFailureThresholdMs: 500, clusterSuccessThresholdMs: 500,
    });
    // member3 is registered with the proxy's kubeconfig: Warren only ever reaches it through the proxy.
    await registerMembers(admin, [members[0]!, members[1]!, { kubeconfig: proxy.kubeconfig }]);
    acme = await onboardTenant(admin, 'acme', { clusters: { names: MEMBERS } }, 40_000);
    assert.equal((await acme.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } })).status, 201);
    // A first Deployment everywhere: member3 works through the proxy, and its namespace exists there.
    assert.equal((await acme.http.post(POLICIES, policy('warmup', ['warmup']))).status, 201);
    assert.equal((await acme.http.post(DEPLOYMENTS, deployment('warmup'))).status, 201);
    for (const i of [0, 1, 2]) await eventually(() => onMember(i, 'warmup'), `warmup on ${MEMBERS[i]}`, { timeoutMs: 20_000 });
  });
  after(async () => {
    await warren?.stop().catch(() => undefined);
    admin?.close();
    await proxy?.close();
    for (const m of members) await m.stop();
    await host?.stop();
  });

  async function onMember(i: number, name: string): Promise<KubeObject | undefined> {
    const res = await direct[i]!.get(`/apis/apps/v1/namespaces/${acme.id}-app/deployments/${name}`);
    return res.status === 200 ? res.body as KubeObject : undefined;
  }
  async function binding(name: string): Promise<ResourceBinding | undefined> {
    const res = await acme.http.get(`/apis/work.karmada.io/v1alpha2/namespaces/app/resourcebindings/${name}-deployment`);
    return res.status === 200 ? res.body as ResourceBinding : undefined;
  }
  /** The tenant's Work for a Deployment on a member, as the tenant sees it through the gateway. */
  async function work(member: string, name: string): Promise<Work | undefined> {
    const res = await acme.http.get(`/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-${member}/works`);
    return (res.body?.items as Work[] | undefined)?.find((w) => w.spec.workload.manifests[0]?.metadata.name === name);
  }
  const applied = (w: Work | undefined): { status: string; message: string } | undefined => {
    const c = w?.status?.conditions?.find((x) => x.type === 'Applied');
    return c ? { status: c.status, message: c.message ?? '' } : undefined;
  };
  const fullyApplied = (b: ResourceBinding | undefined): string | undefined => b?.status?.conditions?.find((c) => c.type === 'FullyApplied')?.status;
  const replicasOn = async (i: number, name: string): Promise<number | undefined> => ((await onMember(i, name))?.spec as { replicas?: number } | undefined)?.replicas;

  it('(a) a member answering 500: the others are applied, its Work and the binding show the failure in tenant terms, and it converges when healed', async () => {
    await proxy.set({ kind: 'fail-writes' });
    assert.equal((await acme.http.post(POLICIES, policy('errors', ['web-a']))).status, 201);
    assert.equal((await acme.http.post(DEPLOYMENTS, deployment('web-a'))).status, 201);
    for (const i of [0, 1]) await eventually(() => onMember(i, 'web-a'), `web-a on ${MEMBERS[i]}`);

    const failed = await eventually(async () => {
      const a = applied(await work('member3', 'web-a'));
      return a?.status === 'False' ? a : undefined;
    }, 'the member3 Work to show Applied False');
    assert.ok(proxy.injected() > 0, 'the proxy answered 500 to a write');
    assert.match(failed.message, /member3/);
    assert.match(failed.message, /namespaces\/app\/deployments\/web-a/, `the failure names the object in tenant terms: ${failed.message}`);
    assert.doesNotMatch(failed.message, new RegExp(`${acme.id}-`), 'no upstream prefix in what the tenant reads');
    for (const m of ['member1', 'member2']) assert.equal(applied(await work(m, 'web-a'))?.status, 'True', `${m}'s Work is applied`);

    const b = await eventually(async () => {
      const rb = await binding('web-a');
      const items = rb?.status?.aggregatedStatus ?? [];
      return items.length === 3 && items.find((s) => s.clusterName === 'member3')?.applied === false ? rb : undefined;
    }, 'the binding to say applied false for member3');
    assert.equal(fullyApplied(b), 'False');
    assert.deepEqual(b?.status?.aggregatedStatus?.filter((s) => s.applied).map((s) => s.clusterName).sort(), ['member1', 'member2']);
    assert.equal(await onMember(2, 'web-a'), undefined, 'nothing reached member3');

    await proxy.set({ kind: 'healthy' });
    await eventually(() => onMember(2, 'web-a'), 'web-a on member3 once healed', { timeoutMs: 20_000 });
    await eventually(async () => fullyApplied(await binding('web-a')) === 'True', 'FullyApplied True once healed', { timeoutMs: 20_000 });
    assert.equal(applied(await work('member3', 'web-a'))?.status, 'True');
  });

  it('(b) a slow member: the others and other bindings are applied at once', async () => {
    // Only workload writes and reads are slowed: the health probe keeps its 1 s deadline
    // (the probe interval is 250 ms here), and a member that slow on /readyz is "down", case (c).
    const delayMs = 3_000;
    await proxy.set({ kind: 'slow', ms: delayMs, only: (_m, path) => path.startsWith('/apis/apps/') });
    assert.equal((await acme.http.post(POLICIES, policy('slow', ['web-b']))).status, 201);
    const other = policy('others', ['web-c']);
    (other.spec as { placement: { clusterAffinity: { clusterNames: string[] } } }).placement.clusterAffinity.clusterNames = ['member1', 'member2'];
    assert.equal((await acme.http.post(POLICIES, other)).status, 201);

    const started = Date.now();
    assert.equal((await acme.http.post(DEPLOYMENTS, deployment('web-b'))).status, 201);
    assert.equal((await acme.http.post(DEPLOYMENTS, deployment('web-c'))).status, 201);
    await eventually(async () => (await onMember(0, 'web-b')) && (await onMember(1, 'web-b')) && (await onMember(0, 'web-c')) && (await onMember(1, 'web-c')),
      'web-b and web-c on member1 and member2', { intervalMs: 50 });
    const fastMs = Date.now() - started;
    // The slow member's copy is still on its way: the others did not wait for it.
    assert.equal(await onMember(2, 'web-b'), undefined, `member3 already had web-b after ${fastMs} ms: the fault was not in the path`);
    assert.ok(fastMs < delayMs, `member1/member2 took ${fastMs} ms`);
    for (const m of ['member1', 'member2']) {
      await eventually(async () => applied(await work(m, 'web-b'))?.status === 'True', `${m}'s Work for web-b applied while member3 is slow`, { timeoutMs: delayMs - 500, intervalMs: 50 });
    }
    // Slow is not failed: member3 gets it too, and the binding becomes FullyApplied.
    await eventually(() => onMember(2, 'web-b'), 'web-b on the slow member3', { timeoutMs: 20_000 });
    await eventually(async () => fullyApplied(await binding('web-b')) === 'True', 'web-b FullyApplied', { timeoutMs: 20_000 });
    await proxy.set({ kind: 'healthy' });
  });

  it('(c) a member down: replicas move (Divided), it is dropped (Duplicated), the failure shows, and nothing is pulled back after recovery', async () => {
    assert.equal((await acme.http.post(POLICIES, policy('down-dup', ['dup'], { tolerationSeconds: 3 }))).status, 201);
    assert.equal((await acme.http.post(POLICIES, policy('down-div', ['div'], { divided: true, tolerationSeconds: 3 }))).status, 201);
    assert.equal((await acme.http.post(DEPLOYMENTS, deployment('dup'))).status, 201);
    assert.equal((await acme.http.post(DEPLOYMENTS, deployment('div', 6))).status, 201);
    for (const i of [0, 1, 2]) {
      await eventually(async () => (await onMember(i, 'dup')) && (await replicasOn(i, 'div')) === 2, `dup and 2 div replicas on ${MEMBERS[i]}`, { timeoutMs: 20_000 });
    }
    await eventually(async () => fullyApplied(await binding('dup')) === 'True' && fullyApplied(await binding('div')) === 'True', 'both bindings FullyApplied');

    await proxy.set({ kind: 'down' });
    // Before the toleration runs out, the binding reports the member as not applied.
    const seen = await eventually(async () => {
      const item = (await binding('dup'))?.status?.aggregatedStatus?.find((s) => s.clusterName === 'member3');
      return item?.applied === false ? item : undefined;
    }, 'the dup binding to say member3 is not applied', { timeoutMs: 10_000, intervalMs: 100 });
    assert.doesNotMatch(JSON.stringify(seen), new RegExp(`${acme.id}-`));
    const workFailure = await eventually(async () => {
      const a = applied(await work('member3', 'dup'));
      return a?.status === 'False' ? a : undefined;
    }, 'the member3 Work for dup to show the failure', { timeoutMs: 10_000, intervalMs: 100 });
    assert.match(workFailure.message, /member3/);

    const divMoved = await eventually(async () => {
      const rb = await binding('div');
      return rb?.spec.clusters?.length === 2 ? rb : undefined;
    }, 'div rescheduled off member3', { timeoutMs: 20_000 });
    assert.deepEqual(divMoved.spec.clusters, [{ name: 'member1', replicas: 3 }, { name: 'member2', replicas: 3 }]);
    for (const i of [0, 1]) await eventually(async () => (await replicasOn(i, 'div')) === 3, `3 div replicas on ${MEMBERS[i]}`);
    const dupMoved = await eventually(async () => {
      const rb = await binding('dup');
      return rb?.spec.clusters?.length === 2 ? rb : undefined;
    }, 'dup dropped from member3 after the toleration', { timeoutMs: 20_000 });
    assert.deepEqual(dupMoved.spec.clusters?.map((c) => c.name), ['member1', 'member2']);
    await eventually(async () => (await work('member3', 'dup')) === undefined && (await work('member3', 'div')) === undefined, 'the evicted Works removed once the others are healthy', { timeoutMs: 20_000 });

    await proxy.set({ kind: 'healthy' });
    await eventually(async () => {
      const c = (await admin.request<{ spec: { taints?: unknown[] }; status?: { conditions?: Array<{ type: string; status: string }> } }>('GET', '/apis/cluster.karmada.io/v1alpha1/clusters/member3')).body;
      return c.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') && (c.spec.taints ?? []).length === 0;
    }, 'member3 Ready again, without taints', { timeoutMs: 20_000 });
    // Make both templates go through the detector and the executor again, and wait until that
    // reached member1: the engine has had its chance to pull anything back.
    for (const name of ['dup', 'div']) {
      const res = await acme.http.patch(`${DEPLOYMENTS}/${name}`, 'application/merge-patch+json', { metadata: { annotations: { recovered: 'yes' } } });
      assert.equal(res.status, 200, res.text);
    }
    for (const name of ['dup', 'div']) {
      await eventually(async () => (await onMember(0, name))?.metadata.annotations?.recovered === 'yes', `the ${name} change on member1`);
    }
    assert.deepEqual((await binding('div'))?.spec.clusters, [{ name: 'member1', replicas: 3 }, { name: 'member2', replicas: 3 }]);
    assert.deepEqual((await binding('dup'))?.spec.clusters?.map((c) => c.name), ['member1', 'member2']);
    assert.equal(await work('member3', 'dup'), undefined);
    assert.equal(await work('member3', 'div'), undefined);
    // The copies left on member3 while it was unreachable are removed once it answers again (as
    // Karmada does when the cluster is back), not kept and not re-adopted.
    await eventually(async () => (await onMember(2, 'dup')) === undefined && (await onMember(2, 'div')) === undefined, 'the stale copies removed from member3', { timeoutMs: 20_000 });
  });
});
