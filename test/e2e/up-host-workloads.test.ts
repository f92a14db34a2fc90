// Issue 14 item 8: where a tenant's workloads run in `warren up` when no policy
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

describe('warren up: the host runs a tenant\'s workloads nobody propagates (issue 14 item 8)', { timeout: 600_000 }, () => {
  const env = usePropagationEnv('up-host-workloads');

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
