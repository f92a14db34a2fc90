// Every workload kind held on a host that runs controllers (ADR 0023, issue
// 15): `warren serve` on a real 1.20 control plane with its controller-manager
// and one real member, one control-plane set for the whole file. For each kind
// (StatefulSet, DaemonSet, Job, ReplicaSet, ReplicationController) a tenant
// writes a propagated copy (`held-*`) and one
// no policy selects (`local-*`):
//   - the host's controllers run the local ones (pods): the controls, so
//     "nothing made" below means something;
//   - the held ones are held upstream, the host makes nothing from them (a
//     watch from before their creation sees no pod and no Job of theirs), the
//     member runs them with the tenant's values, and the tenant reads exactly
//     what it wrote (get -o yaml, the Table, scale, patch, rollout restart);
//   - once the policy and the bindings are gone, they are released and the
//     host runs them like any workload.
// Deployments (also in host-controllers.test.ts) and CronJobs are here too: a
// CronJob as 1.20 serves it, batch/v1beta1, which the engine watches where
// batch/v1 is not served.
// The policy exists before the workloads: the gateway creates them held (hold
// at create time), so the watches see no ReplicaSet, Job or pod of theirs, ever.
// No kubelet runs: pods stay Pending, which is enough (the question is
// whether they are made). A Node object stands in for a node, so that the
// daemon controller has somewhere to put a DaemonSet's pod.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { kubectlAs, type RunResult } from '../fixtures/up/warren-up-process.ts';
import { eventually } from '../helpers/poll.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';
import { KubeHttp } from '../helpers/kube-http.ts';

const RESOURCES = 'resources: { requests: { cpu: 10m, memory: 16Mi }, limits: { cpu: 10m, memory: 16Mi } }';
const podTemplate = (app: string, restart = 'Always'): string =>
  `{ metadata: { labels: { app: ${app} } }, spec: { restartPolicy: ${restart}, containers: [{ name: c, image: busybox, command: [sleep, "3600"], ${RESOURCES} }] } }`;

/** The seven kinds, as a tenant writes them (name prefix `held-` or `local-`). */
function manifests(prefix: string): string {
  const n = (kind: string): string => `${prefix}-${kind}`;
  return [
    `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${n('deploy')} }
spec: { replicas: 2, selector: { matchLabels: { app: ${n('deploy')} } }, template: ${podTemplate(n('deploy'))} }`,
    // 1.20 serves CronJob as batch/v1beta1 only. Every minute: the control's first Job comes within a minute.
    `apiVersion: batch/v1beta1
kind: CronJob
metadata: { name: ${n('cj')} }
spec: { schedule: "* * * * *", jobTemplate: { spec: { template: ${podTemplate(n('cj'), 'Never')} } } }`,
    `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: ${n('sts')} }
spec: { replicas: 2, serviceName: ${n('sts')}, selector: { matchLabels: { app: ${n('sts')} } }, template: ${podTemplate(n('sts'))} }`,
    `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: ${n('ds')} }
spec: { selector: { matchLabels: { app: ${n('ds')} } }, template: ${podTemplate(n('ds'))} }`,
    `apiVersion: batch/v1
kind: Job
metadata: { name: ${n('job')} }
spec: { parallelism: 2, completions: 4, template: ${podTemplate(n('job'), 'Never')} }`,
    `apiVersion: apps/v1
kind: ReplicaSet
metadata: { name: ${n('rs')} }
spec: { replicas: 2, selector: { matchLabels: { app: ${n('rs')} } }, template: ${podTemplate(n('rs'))} }`,
    `apiVersion: v1
kind: ReplicationController
metadata: { name: ${n('rc')} }
spec: { replicas: 2, selector: { app: ${n('rc')} }, template: ${podTemplate(n('rc'))} }`,
  ].join('\n---\n');
}

const SELECTED: Array<[string, string, string]> = [
  ['apps/v1', 'Deployment', 'held-deploy'], ['batch/v1beta1', 'CronJob', 'held-cj'],
  ['apps/v1', 'StatefulSet', 'held-sts'], ['apps/v1', 'DaemonSet', 'held-ds'], ['batch/v1', 'Job', 'held-job'],
  ['apps/v1', 'ReplicaSet', 'held-rs'], ['v1', 'ReplicationController', 'held-rc'],
];
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: held-kinds }
spec:
  resourceSelectors:
${SELECTED.map(([apiVersion, kind, name]) => `    - { apiVersion: ${apiVersion}, kind: ${kind}, name: ${name} }`).join('\n')}
  placement: { clusterAffinity: { clusterNames: [member1] } }
`;

/** Upstream paths of the held objects, by tenant kind. */
const upstreamPath = (ns: string, kind: string, name: string): string => ({
  Deployment: `/apis/apps/v1/namespaces/${ns}/deployments/${name}`,
  CronJob: `/apis/batch/v1beta1/namespaces/${ns}/cronjobs/${name}`,
  StatefulSet: `/apis/apps/v1/namespaces/${ns}/statefulsets/${name}`,
  DaemonSet: `/apis/apps/v1/namespaces/${ns}/daemonsets/${name}`,
  Job: `/apis/batch/v1/namespaces/${ns}/jobs/${name}`,
  ReplicaSet: `/apis/apps/v1/namespaces/${ns}/replicasets/${name}`,
  ReplicationController: `/api/v1/namespaces/${ns}/replicationcontrollers/${name}`,
}[kind] ?? '');

interface Owned { kind: string; name: string; owner: string }

/** Every ADDED object of a watch, kept for the whole file (a watch on the host from before the workloads exist). */
class Recorder {
  readonly added: Owned[] = [];
  private req: ClientRequest | undefined;
  static async start(http: KubeHttp, path: string): Promise<Recorder> {
    const list = await http.get(path);
    assert.equal(list.status, 200, list.text);
    const r = new Recorder();
    const { req, res } = await http.open('GET', `${path}?watch=1&allowWatchBookmarks=false&timeoutSeconds=1800&resourceVersion=${list.body.metadata.resourceVersion as string}`, { timeoutMs: 1_900_000 });
    r.req = req;
    r.read(res);
    return r;
  }
  private read(res: IncomingMessage): void {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const e = JSON.parse(line) as { type: string; object: { kind: string; metadata: { name: string; ownerReferences?: Array<{ name: string }> } } };
        if (e.type === 'ADDED') this.added.push({ kind: e.object.kind, name: e.object.metadata.name, owner: e.object.metadata.ownerReferences?.[0]?.name ?? '' });
      }
    });
  }
  ownedBy(owner: string): Owned[] { return this.added.filter((o) => o.owner === owner); }
  stop(): void { this.req?.destroy(); }
}

const skip = realKubeSkipReason();

describe('every workload kind held on a host that runs controllers (ADR 0023, real 1.20)', { timeout: 1_200_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let ns = '';
  let acmeKc = '';
  let member: KubeHttp;
  const recorders: Recorder[] = [];
  let pods: Recorder;
  let replicaSets: Recorder;
  let jobs: Recorder;
  /** Everything the host made for an owner: its pods, ReplicaSets and Jobs. */
  const madeFor = (owner: string): Owned[] => [...pods.ownedBy(owner), ...replicaSets.ownedBy(owner), ...jobs.ownedBy(owner)];
  const HELD = SELECTED.map(([, , name]) => name);
  const acme = async (...args: string[]): Promise<string> => {
    const r: RunResult = await kubectlAs(acmeKc)(args, 120_000);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const host = async (kind: string, name: string): Promise<any> => {
    const res = await w.hostHttp.get(upstreamPath(ns, kind, name));
    assert.equal(res.status, 200, `${kind} ${name} on the host: ${res.text}`);
    return res.body;
  };

  before(async () => {
    w = await startRealWarren({ members: 1 });
    ns = `${await w.tenantId('acme')}-default`;
    acmeKc = await w.kubeconfigOf('acme');
    member = new KubeHttp(w.members[0]!.kubeconfig);
    // A stand-in node (no kubelet behind it): the daemon controller puts a DaemonSet's pod on it.
    const node = await w.hostHttp.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'stand-in-node', labels: { 'kubernetes.io/hostname': 'stand-in-node', 'kubernetes.io/os': 'linux' } } });
    assert.ok(node.status === 201 || node.status === 409, node.text);
    // The apiserver's TaintNodesByCondition admission gives every new Node `node.kubernetes.io/not-ready:NoSchedule`,
    // which only the node lifecycle controller removes once a kubelet reports Ready; start-kube.sh runs without that
    // controller and no kubelet runs, so the taint would stay, and a DaemonSet's pods (which tolerate not-ready only
    // for NoExecute) would never be wanted on the node. A Ready node has no such taint: take it off.
    const untainted = await w.hostHttp.patch('/api/v1/nodes/stand-in-node', 'application/merge-patch+json', { spec: { taints: null } });
    assert.equal(untainted.status, 200, untainted.text);
    pods = await Recorder.start(w.hostHttp, `/api/v1/namespaces/${ns}/pods`);
    replicaSets = await Recorder.start(w.hostHttp, `/apis/apps/v1/namespaces/${ns}/replicasets`);
    jobs = await Recorder.start(w.hostHttp, `/apis/batch/v1/namespaces/${ns}/jobs`);
    recorders.push(pods, replicaSets, jobs);
    const policy = join(w.dir, 'policy.yaml');
    writeFileSync(policy, POLICY);
    await acme('apply', '-f', policy);
    for (const prefix of ['held', 'local']) {
      const file = join(w.dir, `${prefix}.yaml`);
      writeFileSync(file, manifests(prefix));
      await acme('apply', '-f', file);
    }
  });
  after(async () => {
    for (const r of recorders) r.stop();
    await w?.stop();
  });

  it('the host\'s controllers run what no policy selects (the controls): pods of each kind, a ReplicaSet, a Job', async () => {
    for (const owner of ['local-sts', 'local-ds', 'local-job', 'local-rs', 'local-rc']) {
      await eventually(async () => pods.ownedBy(owner).length > 0, `a pod of ${owner} made on the host`, { timeoutMs: 120_000 });
    }
    await eventually(async () => replicaSets.ownedBy('local-deploy').length > 0, 'a ReplicaSet of local-deploy made on the host', { timeoutMs: 120_000 });
    // The CronJob controller of 1.20 looks every 10 s and the schedule is every minute.
    await eventually(async () => jobs.ownedBy('local-cj').length > 0, 'a Job of the local-cj CronJob made on the host', { timeoutMs: 180_000 });
  });

  it('each propagated kind is held on the host and made nothing there, while the member runs it with the tenant\'s values', async () => {
    const expectHeld: Record<string, (o: any) => boolean> = {
      Deployment: (o) => o.spec.replicas === 0 && o.spec.paused === true && o.metadata.annotations['propagation.warren.dev/replicas'] === '2',
      CronJob: (o) => o.spec.suspend === true && o.metadata.annotations['propagation.warren.dev/suspend'] === 'false',
      StatefulSet: (o) => o.spec.replicas === 0 && o.metadata.annotations['propagation.warren.dev/replicas'] === '2',
      ReplicaSet: (o) => o.spec.replicas === 0 && o.metadata.annotations['propagation.warren.dev/replicas'] === '2',
      ReplicationController: (o) => o.spec.replicas === 0 && o.metadata.annotations['propagation.warren.dev/replicas'] === '2',
      Job: (o) => o.spec.parallelism === 0 && o.metadata.annotations['propagation.warren.dev/parallelism'] === '2',
      DaemonSet: (o) => o.spec.template.spec.nodeSelector?.['propagation.warren.dev/held'] === 'true',
    };
    for (const [, kind, name] of SELECTED) {
      await eventually(async () => {
        const o = await host(kind, name);
        return o.metadata.labels?.['propagation.warren.dev/held'] === 'true' && expectHeld[kind]!(o);
      }, `${kind} ${name} held on the host`, { timeoutMs: 90_000 });
      const path = upstreamPath(ns, kind, name);
      await eventually(async () => (await member.get(path)).status === 200, `${kind} ${name} on member1`, { timeoutMs: 90_000 });
      const copy = (await member.get(path)).body;
      assert.ok(!JSON.stringify(copy.metadata).includes('propagation.warren.dev/held'), `${kind} on member1 carries no mark`);
      if (kind === 'Job') assert.equal(copy.spec.parallelism, 2, 'member1 runs the tenant\'s parallelism');
      if (kind === 'DaemonSet') assert.equal(copy.spec.template.spec.nodeSelector, undefined, 'member1 gets no node term');
      if (['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'].includes(kind)) assert.equal(copy.spec.replicas, 2, `member1 runs ${kind}'s 2 replicas`);
      if (kind === 'Deployment') assert.notEqual(copy.spec.paused, true, 'member1 runs it unpaused');
      if (kind === 'CronJob') assert.equal(copy.spec.suspend, false, 'member1 runs the CronJob unsuspended');
    }
    // The controls made pods, a ReplicaSet and a Job by now; the held ones made nothing, not even for a moment.
    for (const owner of HELD) assert.deepEqual(madeFor(owner), [], `nothing of ${owner} ever made on the host`);
    // The daemon controller saw the held DaemonSet and scheduled it nowhere; the control has its stand-in node.
    const ds = await host('DaemonSet', 'held-ds');
    assert.equal(ds.status?.desiredNumberScheduled ?? 0, 0, 'the held DaemonSet is wanted on no node');
    assert.equal((await host('DaemonSet', 'local-ds')).status?.desiredNumberScheduled, 1, 'the control is wanted on the stand-in node');
  });

  it('the tenant reads exactly what it wrote: get -o yaml, the Table', async () => {
    const yaml = await acme('get', 'deployment,cronjob,statefulset,daemonset,job,replicaset,replicationcontroller', '-o', 'yaml');
    assert.doesNotMatch(yaml, /propagation\.warren\.dev/, 'no mark in the tenant\'s view');
    assert.equal((await acme('get', 'sts', 'held-sts', '-o', 'jsonpath={.spec.replicas}')).trim(), '2');
    assert.equal((await acme('get', 'rs', 'held-rs', '-o', 'jsonpath={.spec.replicas}')).trim(), '2');
    assert.equal((await acme('get', 'rc', 'held-rc', '-o', 'jsonpath={.spec.replicas}')).trim(), '2');
    assert.equal((await acme('get', 'job', 'held-job', '-o', 'jsonpath={.spec.parallelism}')).trim(), '2');
    assert.equal((await acme('get', 'deploy', 'held-deploy', '-o', 'jsonpath={.spec.replicas}/{.spec.paused}')).trim(), '2/');
    assert.equal((await acme('get', 'cronjob', 'held-cj', '-o', 'jsonpath={.spec.suspend}')).trim(), 'false');
    assert.equal((await acme('get', 'ds', 'held-ds', '-o', 'jsonpath={.spec.template.spec.nodeSelector}')).trim(), '');
    const table = (kind: string, name: string): Promise<string> => acme('get', kind, name, '--no-headers');
    assert.match(await table('sts', 'held-sts'), /^held-sts\s+\d+\/2\s/, 'STATEFULSET READY over the tenant\'s 2');
    assert.match(await table('rs', 'held-rs'), /^held-rs\s+2\s/, 'REPLICASET DESIRED 2');
    assert.match(await table('rc', 'held-rc'), /^held-rc\s+2\s/, 'RC DESIRED 2');
    const dsRow = await table('ds', 'held-ds');
    assert.doesNotMatch(dsRow, /propagation/, 'DAEMONSET NODE SELECTOR without the held term');
    assert.match(dsRow, /<none>/);
  });

  it('scale, patch and rollout restart round-trip in the tenant\'s terms; the host stays held', async () => {
    await acme('scale', 'statefulset', 'held-sts', '--replicas=3');
    assert.equal((await acme('get', 'sts', 'held-sts', '-o', 'jsonpath={.spec.replicas}')).trim(), '3');
    assert.equal((await host('StatefulSet', 'held-sts')).spec.replicas, 0, 'held at 0 on the host');
    await eventually(async () => (await member.get(upstreamPath(ns, 'StatefulSet', 'held-sts'))).body?.spec?.replicas === 3, 'member1 runs 3', { timeoutMs: 90_000 });
    await acme('scale', 'rc', 'held-rc', '--replicas=1');
    assert.equal((await acme('get', 'rc', 'held-rc', '-o', 'jsonpath={.spec.replicas}')).trim(), '1');
    await acme('patch', 'job', 'held-job', '--type=merge', '-p', '{"spec":{"parallelism":3}}');
    assert.equal((await acme('get', 'job', 'held-job', '-o', 'jsonpath={.spec.parallelism}')).trim(), '3');
    assert.equal((await host('Job', 'held-job')).spec.parallelism, 0);
    await acme('rollout', 'restart', 'daemonset/held-ds');
    const ds = await host('DaemonSet', 'held-ds');
    assert.ok(ds.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt'], 'the restart reached the template');
    assert.equal(ds.spec.template.spec.nodeSelector?.['propagation.warren.dev/held'], 'true', 'and the DaemonSet is still held');
    await acme('rollout', 'restart', 'statefulset/held-sts');
    assert.equal((await host('StatefulSet', 'held-sts')).spec.replicas, 0);
    // A forged mark is refused, on any kind.
    const forged = await kubectlAs(acmeKc)(['label', 'job', 'held-job', 'propagation.warren.dev/held=false', '--overwrite'], 120_000);
    assert.notEqual(forged.code, 0);
    assert.match(forged.stderr, /Forbidden|forbidden/);
    await new Promise((resolve) => setTimeout(resolve, 15_000)); // the controllers have had time to act on every write
    for (const owner of HELD) assert.deepEqual(madeFor(owner), [], `still nothing of ${owner} on the host`);
  });

  it('released when the policy and its bindings go: the host runs them like any workload', async () => {
    await acme('delete', 'propagationpolicy', 'held-kinds');
    for (const [, kind, name] of SELECTED) {
      const binding = `${name}-${kind.toLowerCase()}`;
      const del = await w.hostHttp.delete(`/apis/work.karmada.io/v1alpha2/namespaces/${ns}/resourcebindings/${binding}`);
      assert.ok(del.status === 200 || del.status === 202, `delete binding ${binding}: ${del.text}`);
    }
    await eventually(async () => {
      const o = await host('ReplicaSet', 'held-rs');
      return o.metadata.labels?.['propagation.warren.dev/held'] === undefined && o.spec.replicas === 2;
    }, 'held-rs released with the tenant\'s 2 replicas', { timeoutMs: 120_000 });
    await eventually(async () => pods.ownedBy('held-rs').length > 0, 'the host makes pods of the released ReplicaSet', { timeoutMs: 90_000 });
    await eventually(async () => {
      const o = await host('DaemonSet', 'held-ds');
      return o.metadata.labels?.['propagation.warren.dev/held'] === undefined && o.spec.template.spec.nodeSelector === undefined;
    }, 'held-ds released without the node term', { timeoutMs: 120_000 });
    await eventually(async () => pods.ownedBy('held-ds').length > 0, 'the host puts the released DaemonSet\'s pod on the stand-in node', { timeoutMs: 90_000 });
    const job = await eventually(async () => {
      const o = await host('Job', 'held-job');
      return o.metadata.labels?.['propagation.warren.dev/held'] === undefined ? o : undefined;
    }, 'held-job released', { timeoutMs: 120_000 });
    assert.equal(job.spec.parallelism, 3, 'with the tenant\'s last parallelism');
    await eventually(async () => {
      const o = await host('CronJob', 'held-cj');
      return o.metadata.labels?.['propagation.warren.dev/held'] === undefined && o.spec.suspend === false;
    }, 'held-cj released, unsuspended', { timeoutMs: 120_000 });
    assert.doesNotMatch(JSON.stringify(job.metadata.annotations ?? {}), /propagation\.warren\.dev/);
  });
});
