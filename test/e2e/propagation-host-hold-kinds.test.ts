// The hold of ADR 0023 for every workload kind but Deployments (those:
// propagation-host-hold.test.ts), on the embedded host of `warren up`, through
// real kubectl as the tenant. A StatefulSet, DaemonSet, Job, CronJob,
// ReplicaSet and ReplicationController, propagated to member1, are stored held
// on the host (0 replicas, parallelism 0, suspended, pods bound to a node term)
// while the tenant reads and writes exactly its own spec (get -o json/yaml, the
// Table, scale, patch, rollout restart, server-side apply) and member1 gets the
// tenant's values. Adversarial: the marks and the DaemonSet node term are
// refused, the other tenant reaches nothing. Released with the binding.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../src/core/types.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';

const MARK = 'propagation.warren.dev';
const POD = `{ metadata: { labels: { app: APP } }, spec: { restartPolicy: RESTART, securityContext: { runAsNonRoot: true, seccompProfile: { type: RuntimeDefault } },
  containers: [{ name: c, image: nginx, securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } } }] } }`;
const pod = (app: string, restart = 'Always'): string => POD.replace('APP', app).replace('RESTART', restart);
const KINDS = `
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: default }
spec: { replicas: 3, serviceName: db, selector: { matchLabels: { app: db } }, template: ${pod('db')} }
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: default }
spec: { selector: { matchLabels: { app: agent } }, template: ${pod('agent').replace('restartPolicy: Always,', 'restartPolicy: Always, nodeSelector: { disk: ssd },')} }
---
apiVersion: batch/v1
kind: Job
metadata: { name: batch, namespace: default }
spec: { parallelism: 2, completions: 4, template: ${pod('batch', 'Never')} }
---
apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly, namespace: default }
spec: { schedule: "0 3 * * *", jobTemplate: { spec: { template: ${pod('nightly', 'Never')} } } }
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: { name: cache, namespace: default }
spec: { replicas: 2, selector: { matchLabels: { app: cache } }, template: ${pod('cache')} }
---
apiVersion: v1
kind: ReplicationController
metadata: { name: legacy, namespace: default }
spec: { replicas: 2, selector: { app: legacy }, template: ${pod('legacy')} }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: kinds, namespace: default }
spec:
  resourceSelectors:
  - { apiVersion: apps/v1, kind: StatefulSet, name: db }
  - { apiVersion: apps/v1, kind: DaemonSet, name: agent }
  - { apiVersion: batch/v1, kind: Job, name: batch }
  - { apiVersion: batch/v1, kind: CronJob, name: nightly }
  - { apiVersion: apps/v1, kind: ReplicaSet, name: cache }
  - { apiVersion: v1, kind: ReplicationController, name: legacy }
  placement: { clusterAffinity: { clusterNames: [member1] } }
`;

const PATHS: Record<string, string> = {
  'statefulset/db': '/apis/apps/v1/namespaces/NS/statefulsets/db',
  'daemonset/agent': '/apis/apps/v1/namespaces/NS/daemonsets/agent',
  'job/batch': '/apis/batch/v1/namespaces/NS/jobs/batch',
  'cronjob/nightly': '/apis/batch/v1/namespaces/NS/cronjobs/nightly',
  'replicaset/cache': '/apis/apps/v1/namespaces/NS/replicasets/cache',
  'replicationcontroller/legacy': '/api/v1/namespaces/NS/replicationcontrollers/legacy',
};
type Any = Record<string, any>;

/** Held on the host: the label, and each kind's held value. */
function heldOnHost(ref: string, o: Any): boolean {
  if (o.metadata.labels?.[`${MARK}/held`] !== 'true') return false;
  const spec = o.spec;
  switch (ref.split('/')[0]) {
    case 'daemonset': return spec.template.spec.nodeSelector?.[`${MARK}/held`] === 'true';
    case 'job': return spec.parallelism === 0;
    case 'cronjob': return spec.suspend === true;
    default: return spec.replicas === 0;
  }
}

describe('propagation: every workload kind is held on the host, the tenant keeps its own spec (ADR 0023)', { timeout: 300_000 }, () => {
  const env = usePropagationEnv('propagation-host-hold-kinds');
  const acme = env.as('acme');
  let ns = '';
  let host: Upstream | undefined;
  const pathOf = (ref: string): string => PATHS[ref]!.replace('NS', ns);
  const onHost = async (ref: string): Promise<Any> => {
    const res = await host!.request<KubeObject>('GET', pathOf(ref));
    assert.equal(res.status, 200, `${ref} on the host`);
    return res.body as Any;
  };
  const onMember1 = async (ref: string): Promise<Any | undefined> => {
    const res = await env.members.member1!.request<KubeObject>('GET', pathOf(ref));
    return res.status === 200 ? res.body as Any : undefined;
  };
  const view = async (ref: string): Promise<Any> => JSON.parse(await acme('get', ref, '-o', 'json')) as Any;

  before(async () => {
    ns = `${env.idOf('acme')}-default`;
    host = createUpstream({ path: env.up().adminKubeconfigPath });
    await env.apply('acme', KINDS, 'kinds.yaml');
  });
  after(() => host?.close());

  it('holds each kind on the host once bound; member1 gets the tenant\'s values, unheld and unmarked', async () => {
    for (const ref of Object.keys(PATHS)) {
      await eventually(async () => heldOnHost(ref, await onHost(ref)), `${ref} held on the host`);
      const copy = await eventually(async () => onMember1(ref), `${ref} on member1`);
      assert.ok(!JSON.stringify(copy).includes(MARK), `${ref}: no mark on member1`);
    }
    assert.equal((await onMember1('statefulset/db'))!.spec.replicas, 3);
    assert.equal((await onMember1('job/batch'))!.spec.parallelism, 2);
    assert.equal((await onMember1('cronjob/nightly'))!.spec.suspend, false);
    assert.deepEqual((await onMember1('daemonset/agent'))!.spec.template.spec.nodeSelector, { disk: 'ssd' });
    assert.equal((await onMember1('replicationcontroller/legacy'))!.spec.replicas, 2);
    const ds = await onHost('daemonset/agent');
    assert.deepEqual(ds.spec.template.spec.nodeSelector, { disk: 'ssd', [`${MARK}/held`]: 'true' }, 'the tenant\'s nodeSelector kept beside the held term');
  });

  it('the tenant reads exactly what it wrote: get -o json and -o yaml, the Table', async () => {
    assert.equal((await view('statefulset/db')).spec.replicas, 3);
    assert.equal((await view('job/batch')).spec.parallelism, 2);
    assert.equal((await view('cronjob/nightly')).spec.suspend, false);
    assert.deepEqual((await view('daemonset/agent')).spec.template.spec.nodeSelector, { disk: 'ssd' });
    assert.equal((await view('replicaset/cache')).spec.replicas, 2);
    assert.equal((await view('replicationcontroller/legacy')).spec.replicas, 2);
    const yaml = await acme('get', 'statefulsets,daemonsets,jobs,cronjobs,replicasets,replicationcontrollers', '-o', 'yaml', '--show-managed-fields');
    assert.ok(!yaml.includes(MARK), `a mark shows in the tenant view:\n${yaml}`);
    const row = async (ref: string): Promise<string[]> => (await acme('get', ref, '--no-headers')).trim().split(/\s+/);
    assert.match((await row('statefulset/db'))[1] ?? '', /^\d+\/3$/, 'StatefulSet READY over the tenant\'s 3');
    assert.equal((await row('replicaset/cache'))[1], '2', 'ReplicaSet DESIRED');
    assert.equal((await row('replicationcontroller/legacy'))[1], '2', 'RC DESIRED');
    const cron = await acme('get', 'cronjob/nightly', '--no-headers');
    assert.match(cron, /\sFalse\s/, `CronJob SUSPEND: ${cron}`);
    const ds = await acme('get', 'daemonset/agent', '-o', 'wide', '--no-headers');
    assert.match(ds, /\sdisk=ssd\s/, `DaemonSet NODE SELECTOR: ${ds}`);
    assert.ok(!ds.includes(MARK), ds);
    const job = await acme('get', 'job/batch', '--no-headers');
    assert.match(job, /\s\d+\/4\s/, `Job COMPLETIONS: ${job}`);
    assert.match(await acme('get', 'statefulsets', '-o', 'custom-columns=N:.metadata.name,R:.spec.replicas', '--no-headers'), /db\s+3/);
  });

  it('scale, patch, rollout restart and server-side apply mean what the tenant meant; the host stays held', async () => {
    await acme('scale', 'statefulset', 'db', '--replicas', '5');
    assert.equal((await acme('get', 'statefulset', 'db', '--subresource', 'scale', '-o', 'jsonpath={.spec.replicas}')).trim(), '5');
    await acme('scale', 'replicationcontroller', 'legacy', '--replicas', '1');
    await acme('scale', 'replicaset', 'cache', '--replicas', '4');
    await acme('patch', 'cronjob', 'nightly', '-p', '{"spec":{"suspend":true}}');
    await acme('patch', 'job', 'batch', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/parallelism","value":3}]');
    await acme('rollout', 'restart', 'daemonset/agent');
    await acme('rollout', 'restart', 'statefulset/db');
    const file = join(env.root, 'cache-ssa.yaml');
    writeFileSync(file, KINDS.split('---')[4]!.replace('replicas: 2', 'replicas: 6'));
    await acme('apply', '--server-side', '--force-conflicts', '-f', file);
    assert.equal((await view('statefulset/db')).spec.replicas, 5);
    assert.equal((await view('replicationcontroller/legacy')).spec.replicas, 1);
    assert.equal((await view('replicaset/cache')).spec.replicas, 6);
    assert.equal((await view('cronjob/nightly')).spec.suspend, true);
    assert.equal((await view('job/batch')).spec.parallelism, 3);
    assert.ok((await view('daemonset/agent')).spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']);
    for (const ref of Object.keys(PATHS)) assert.ok(heldOnHost(ref, await onHost(ref)), `${ref} still held on the host`);
    assert.equal((await onHost('cronjob/nightly')).metadata.annotations[`${MARK}/suspend`], 'true');
    await eventually(async () => (await onMember1('statefulset/db'))?.spec.replicas === 5, 'member1 runs 5 of db');
    await eventually(async () => (await onMember1('job/batch'))?.spec.parallelism === 3, 'member1 runs batch at parallelism 3');
    await eventually(async () => (await onMember1('cronjob/nightly'))?.spec.suspend === true, 'member1 has nightly suspended, as the tenant asked');
    await eventually(async () => (await onMember1('daemonset/agent'))?.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt'] !== undefined, 'the restart reaches member1');
  });

  it('adversarial: the marks and the DaemonSet\'s node term are refused (403 in tenant terms); the other tenant reaches nothing', async () => {
    const before = await onHost('daemonset/agent');
    const attempts: Array<[string, string[]]> = [
      ['node term by patch', ['patch', 'daemonset', 'agent', '--type', 'merge', '-p', `{"spec":{"template":{"spec":{"nodeSelector":{"${MARK}/held":"false"}}}}}`]],
      ['label a Job held=false', ['label', 'job', 'batch', '--overwrite', `${MARK}/held=false`]],
      ['annotate a CronJob\'s suspend', ['annotate', 'cronjob', 'nightly', `${MARK}/suspend=false`]],
      ['annotate a StatefulSet\'s replicas', ['annotate', 'statefulset', 'db', `${MARK}/replicas=0`]],
      ['write a held Job\'s status', ['patch', 'job', 'batch', '--subresource', 'status', '--type', 'merge', '-p', '{"status":{"succeeded":4}}']],
    ];
    for (const [what, args] of attempts) {
      const r = await env.run('acme', ...args);
      assert.notEqual(r.code, 0, `${what} succeeded: ${r.stdout}`);
      assert.match(r.stderr, /Forbidden|forbidden/, `${what}: ${r.stderr}`);
      assert.ok(!r.stderr.includes(`${ns.slice(0, 7)}`), `${what}: the upstream prefix leaks: ${r.stderr}`);
    }
    const invalid = await env.run('acme', 'patch', 'job', 'batch', '--type', 'merge', '-p', '{"spec":{"parallelism":-1}}');
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /spec\.parallelism.*greater than or equal to 0/, invalid.stderr);
    assert.deepEqual((await onHost('daemonset/agent')).spec, before.spec, 'the held DaemonSet is unchanged');
    for (const ref of Object.keys(PATHS)) {
      const other = await env.run('globex', 'get', ref, '-n', 'default');
      assert.notEqual(other.code, 0, `globex reads acme's ${ref}`);
      assert.match(other.stderr, /NotFound|not found/);
    }
  });

  it('released once its policy and bindings are gone: the tenant\'s values back on the host, no mark left', async () => {
    await acme('delete', 'propagationpolicy', 'kinds');
    for (const ref of Object.keys(PATHS)) {
      const [kind, name] = ref.split('/') as [string, string];
      const rb = `/apis/work.karmada.io/v1alpha2/namespaces/${ns}/resourcebindings/${name}-${kind}`;
      assert.equal((await host!.request('DELETE', rb)).status, 200, rb);
    }
    for (const ref of Object.keys(PATHS)) {
      const released = await eventually(async () => {
        const o = await onHost(ref);
        return o.metadata.labels?.[`${MARK}/held`] === undefined ? o : undefined;
      }, `${ref} released on the host`);
      assert.ok(!JSON.stringify(released).includes(MARK), `${ref}: no mark left upstream`);
    }
    assert.equal((await onHost('statefulset/db')).spec.replicas, 5);
    assert.equal((await onHost('job/batch')).spec.parallelism, 3);
    assert.equal((await onHost('cronjob/nightly')).spec.suspend, true, 'the tenant\'s own suspend');
    assert.deepEqual((await onHost('daemonset/agent')).spec.template.spec.nodeSelector, { disk: 'ssd' });
    assert.equal((await view('replicaset/cache')).spec.replicas, 6);
  });
});
