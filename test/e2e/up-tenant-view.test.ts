// Issue 14 items 8 and 9 on `warren up`, as a tenant with kubectl 1.27 and 1.33.
// Item 9: the tenant sees its quota, a ResourceQuota `tenant-quota` in every
// namespace (its Tenant's limits as hard, its usage as used), made with each
// namespace and gone with it, read-only (403), its counts live; another tenant
// sees its own, never acme's.
// Item 8: where a tenant's workloads run in `warren up` when no policy
// propagates them. The embedded host simulates them, as the members do (ADR
// 0023's one model: the host runs what is not propagated), so a tenant's
// Deployment, ReplicaSet and ReplicationController get pods, the garbage
// collector deletes what they made, and their pods answer `kubectl logs` and
// `kubectl exec` in words, not with a 405 or a hang. With kubectl 1.27 and 1.33,
// as a tenant, through the gateway.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectl } from '../helpers/kubectl.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';

describe('warren up: the tenant\'s own view (issue 14 items 8 and 9)', { timeout: 900_000 }, () => {
  const env = usePropagationEnv('up-tenant-view');
  const PREFIX = 'tenancy.warren.dev/';

  for (const version of ['1.27', '1.33']) {
    it(`kubectl ${version}: the tenant reads its quota in default/tenant-quota (hard = the Tenant's limits, used = its usage), globex its own`, async () => {
      const as = (tenant: string) => async (...args: string[]): Promise<string> => {
        const r = await kubectl(version, args, { kubeconfigPath: join(env.root, 'tenants', `${tenant}.kubeconfig`) });
        assert.equal(r.code, 0, `kubectl ${version} ${args.join(' ')}: ${r.stderr}`);
        return r.stdout;
      };
      const quota = await eventually(async () => {
        const r = await kubectl(version, ['-n', 'default', 'get', 'resourcequota', 'tenant-quota', '-o', 'json'], { kubeconfigPath: join(env.root, 'tenants', 'acme.kubeconfig') });
        return r.code === 0 ? JSON.parse(r.stdout) as { spec: { hard: Record<string, string> }; status?: { hard?: Record<string, string>; used?: Record<string, string> } } : undefined;
      }, 'acme\'s tenant-quota', { timeoutMs: 120_000 });
      const hard = quota.spec.hard;
      assert.equal(hard[`${PREFIX}requests.cpu`], '16');
      assert.equal(hard[`${PREFIX}requests.memory`], '64Gi');
      assert.equal(hard[`${PREFIX}requests.storage`], '500Gi');
      assert.equal(hard[`${PREFIX}namespaces`], '20');
      assert.equal(hard[`${PREFIX}count.configmaps`], '1000');
      assert.equal(hard[`${PREFIX}count.deployments.apps`], '1000');
      const described = await as('acme')('-n', 'default', 'describe', 'quota', 'tenant-quota');
      assert.match(described, new RegExp(`${PREFIX.replace(/\./g, '\\.')}requests\\.cpu\\s+\\S+\\s+16`));
      assert.match(described, new RegExp(`${PREFIX.replace(/\./g, '\\.')}count\\.secrets\\s+\\d+\\s+(1000|1k)\\n`));
      assert.doesNotMatch(described, new RegExp(`${env.idOf('acme')}-`), 'in the tenant\'s terms');
      const theirs = JSON.parse(await as('globex')('-n', 'default', 'get', 'resourcequota', 'tenant-quota', '-o', 'json')) as { spec: { hard: Record<string, string> } };
      assert.equal(theirs.spec.hard[`${PREFIX}requests.cpu`], '8', 'globex sees its own limits, not acme\'s');
      assert.equal(theirs.spec.hard[`${PREFIX}count.configmaps`], '500');
    });

    it(`kubectl ${version}: a namespace comes with its tenant-quota, read-only, whose counts follow creates and deletes, and goes with it`, async () => {
      const ns = `quota-${version.replace('.', '-')}`;
      const run = (...args: string[]) => kubectl(version, args, { kubeconfigPath: join(env.root, 'tenants', 'acme.kubeconfig') });
      const ok = async (...args: string[]): Promise<string> => {
        const r = await run(...args);
        assert.equal(r.code, 0, `kubectl ${version} ${args.join(' ')}: ${r.stderr}`);
        return r.stdout;
      };
      const usedOf = async (): Promise<Record<string, string>> =>
        (JSON.parse(await ok('-n', ns, 'get', 'resourcequota', 'tenant-quota', '-o', 'json')) as { status?: { used?: Record<string, string> } }).status?.used ?? {};
      await ok('create', 'namespace', ns);
      // Created with the namespace: no wait.
      assert.match(await ok('-n', ns, 'get', 'resourcequota', 'tenant-quota', '-o', 'name'), /^resourcequota\/tenant-quota$/m);
      const all = await ok('get', 'quota', '-A');
      for (const n of ['default', 'kube-system', ns]) assert.match(all, new RegExp(`^${n}\\s+tenant-quota\\s`, 'm'), `get quota -A lists ${n}'s view`);
      assert.doesNotMatch(all, new RegExp(`${env.idOf('acme')}-`), 'in the tenant\'s terms');
      // Live: the counts come from the gateway's counters within seconds, not at onboarding's next pass.
      const before = await eventually(async () => {
        const used = await usedOf();
        return used[`${PREFIX}count.configmaps`] !== undefined && used[`${PREFIX}namespaces`] !== undefined ? used : undefined;
      }, 'the view\'s counts', { timeoutMs: 30_000 });
      const configmaps = Number(before[`${PREFIX}count.configmaps`]);
      await ok('-n', ns, 'create', 'configmap', 'one', '--from-literal=a=b');
      await ok('-n', ns, 'create', 'configmap', 'two', '--from-literal=a=b');
      await eventually(async () => Number((await usedOf())[`${PREFIX}count.configmaps`]) === configmaps + 2, `count.configmaps ${configmaps} → ${configmaps + 2}`, { timeoutMs: 20_000 });
      await ok('-n', ns, 'delete', 'configmap', 'one');
      await eventually(async () => Number((await usedOf())[`${PREFIX}count.configmaps`]) === configmaps + 1, `count.configmaps back to ${configmaps + 1}`, { timeoutMs: 20_000 });
      // Every tenant namespace shows the same tenant-wide figure.
      await eventually(async () => {
        const r = await run('-n', 'default', 'get', 'resourcequota', 'tenant-quota', '-o', `jsonpath={.status.used.tenancy\\.warren\\.dev/count\\.configmaps}`);
        return Number(r.stdout) === configmaps + 1;
      }, 'default\'s view agrees', { timeoutMs: 20_000 });
      // Read-only: the answer kube gives a user without the right, in tenant terms.
      for (const args of [['label', 'resourcequota', 'tenant-quota', 'x=y'], ['delete', 'resourcequota', 'tenant-quota'], ['patch', 'resourcequota', 'tenant-quota', '--type=merge', '-p', '{"spec":{"hard":{"tenancy.warren.dev/namespaces":"999"}}}']]) {
        const r = await run('-n', ns, ...args);
        assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} must fail`);
        assert.match(r.stderr, new RegExp(`Error from server \\(Forbidden\\): resourcequotas "tenant-quota" is forbidden: User "alice" cannot (patch|delete) resource "resourcequotas" in API group "" in the namespace "${ns}"`));
        assert.doesNotMatch(r.stderr, new RegExp(`${env.idOf('acme')}-`));
      }
      const kept = JSON.parse(await ok('-n', ns, 'get', 'resourcequota', 'tenant-quota', '-o', 'json')) as { metadata: { labels?: Record<string, string> }; spec: { hard: Record<string, string> } };
      assert.equal(kept.spec.hard[`${PREFIX}namespaces`], '20');
      assert.equal(kept.metadata.labels?.x, undefined);
      // The tenant's own quotas are its to write, beside the view.
      await ok('-n', ns, 'create', 'quota', 'mine', '--hard=configmaps=10');
      await ok('-n', ns, 'delete', 'quota', 'mine');
      await ok('delete', 'namespace', ns, '--wait=false');
      await eventually(async () => (await run('get', 'namespace', ns)).code !== 0, `${ns} gone`, { timeoutMs: 120_000 });
      assert.doesNotMatch(await ok('get', 'quota', '-A'), new RegExp(`^${ns}\\s`, 'm'), 'the view went with its namespace');
    });
  }

  it('the used figures follow the tenant\'s usage at the next count', async () => {
    const acme = (...args: string[]) => env.as('acme')(...args);
    await acme('create', 'namespace', 'counted');
    await acme('-n', 'counted', 'create', 'deployment', 'big', '--image=nginx', '--replicas=3');
    await acme('-n', 'counted', 'set', 'resources', 'deployment', 'big', '--requests=cpu=500m,memory=256Mi');
    // A Tenant change makes onboarding count again (as its periodic resync does).
    const host = createUpstream({ path: env.up().adminKubeconfigPath });
    try {
      const patched = await host.request('PATCH', '/apis/tenancy.warren.dev/v1alpha1/tenants/acme', { metadata: { annotations: { 'test/recount': String(Date.now()) } } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(patched.status, 200);
    } finally {
      host.close();
    }
    await eventually(async () => {
      const used = JSON.parse(await acme('-n', 'default', 'get', 'resourcequota', 'tenant-quota', '-o', 'jsonpath={.status.used}')) as Record<string, string>;
      return used[`${PREFIX}requests.cpu`] === '1500m' && used[`${PREFIX}requests.memory`] === '768Mi' ? used : undefined;
    }, 'used = 3 × (500m, 256Mi)', { timeoutMs: 120_000 });
    await acme('delete', 'namespace', 'counted', '--wait=false');
  });

  for (const version of ['1.27', '1.33']) {
    const ns = `run-${version.replace('.', '-')}`;
    const k = async (...args: string[]): Promise<string> => {
      const r = await kubectl(version, ['-n', ns, ...args], { kubeconfigPath: join(env.root, 'tenants', 'acme.kubeconfig') });
      assert.equal(r.code, 0, `kubectl ${version} ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const fails = async (...args: string[]): Promise<string> => {
      const r = await kubectl(version, ['-n', ns, ...args], { kubeconfigPath: join(env.root, 'tenants', 'acme.kubeconfig'), timeoutMs: 60_000 });
      assert.notEqual(r.code, 0, `kubectl ${version} ${args.join(' ')} should fail`);
      return r.stderr;
    };

    it(`kubectl ${version}: a Deployment runs (ready pods), logs and exec say the pod is simulated, deleting it deletes its ReplicaSet`, async () => {
      await k('create', 'namespace', ns).catch(() => undefined);
      await k('create', 'deployment', 'web', '--image=nginx', '--replicas=2');
      await eventually(async () => (await k('get', 'deployment', 'web', '-o', 'jsonpath={.status.readyReplicas}')) === '2', `web 2/2 ready (${version})`, { timeoutMs: 120_000 });
      const pods = (await k('get', 'pods', '-l', 'app=web', '-o', 'name')).trim().split('\n');
      assert.equal(pods.length, 2);
      const phases = await k('get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status.phase}');
      assert.deepEqual(phases.split(' '), ['Running', 'Running']);
      const log = await k('logs', pods[0]!);
      assert.match(log, /is simulated: no container runs/);
      const exec = await fails('exec', pods[0]!, '--', 'ls');
      assert.match(exec, /is simulated: no container runs on this Kubernetes-compatible server, so there is nothing to exec into/);
      assert.doesNotMatch(exec, /MethodNotAllowed|not allow this method/);
      assert.doesNotMatch(exec, new RegExp(`${env.idOf('acme')}-`), 'in the tenant\'s terms');
      const rs = (await k('get', 'replicasets', '-l', 'app=web', '-o', 'name')).trim();
      assert.match(rs, /^replicaset\.apps\/web-/);
      // The garbage collector follows the owner: the conformance spec "delete RS created by deployment when not orphaning".
      await k('delete', 'deployment', 'web');
      await eventually(async () => (await k('get', 'replicasets,pods', '-l', 'app=web', '-o', 'name')).trim() === '', `web's ReplicaSet and pods gone (${version})`, { timeoutMs: 120_000 });
    });

    it(`kubectl ${version}: a ReplicationController runs its pods, and they go with it`, async () => {
      await env.apply('acme', [
        'apiVersion: v1', 'kind: ReplicationController', `metadata: {name: rc, namespace: ${ns}}`,
        'spec:', '  replicas: 2', '  selector: {app: rc}', '  template:', '    metadata: {labels: {app: rc}}',
        '    spec: {containers: [{name: main, image: nginx}]}',
      ].join('\n'), `rc-${version}.yaml`);
      await eventually(async () => (await k('get', 'rc', 'rc', '-o', 'jsonpath={.status.readyReplicas}')) === '2', `rc 2 ready (${version})`, { timeoutMs: 120_000 });
      const owners = await k('get', 'pods', '-l', 'app=rc', '-o', 'jsonpath={.items[*].metadata.ownerReferences[0].kind}');
      assert.deepEqual(owners.split(' '), ['ReplicationController', 'ReplicationController']);
      await k('delete', 'rc', 'rc');
      await eventually(async () => (await k('get', 'pods', '-l', 'app=rc', '-o', 'name')).trim() === '', `rc's pods gone (${version})`, { timeoutMs: 120_000 });
    });
  }
});
