// Issue 14 items 8 and 9 on `warren up`, as a tenant with kubectl 1.27 and 1.33.
// Item 9: the tenant sees its quota, a ResourceQuota `tenant-quota` in its
// `default` namespace (its Tenant's limits as hard, the counted usage as used),
// and another tenant sees its own, never acme's.
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
      assert.deepEqual(quota.spec.hard, { [`${PREFIX}requests.cpu`]: '16', [`${PREFIX}requests.memory`]: '64Gi', [`${PREFIX}requests.storage`]: '500Gi' });
      assert.deepEqual(Object.keys(quota.status?.used ?? {}).sort(), Object.keys(quota.spec.hard).sort());
      const described = await as('acme')('-n', 'default', 'describe', 'quota', 'tenant-quota');
      assert.match(described, new RegExp(`${PREFIX.replace(/\./g, '\\.')}requests\\.cpu\\s+\\S+\\s+16`));
      assert.doesNotMatch(described, new RegExp(`${env.idOf('acme')}-`), 'in the tenant\'s terms');
      const theirs = JSON.parse(await as('globex')('-n', 'default', 'get', 'resourcequota', 'tenant-quota', '-o', 'json')) as { spec: { hard: Record<string, string> } };
      assert.equal(theirs.spec.hard[`${PREFIX}requests.cpu`], '8', 'globex sees its own limits, not acme\'s');
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
