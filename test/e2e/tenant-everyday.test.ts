// Issue 14: the tenant's everyday cluster, with real kubectl (1.27 and 1.33)
// against `warren up` (two members, tenants acme and globex):
//   1. `kubectl get ... --sort-by` prints the rows (it printed empty names);
//   2. `kubectl rollout status` and `kubectl wait --for=condition=Available`
//      finish on a propagated Deployment (observedGeneration and conditions);
//   3. the tenant quota counts only what the tenant can see;
//   4. `kubectl get crb` shows tenant names, and that name works;
//   5. edits that cannot apply (Pod Security labels, the tenant label) are
//      refused with a 403 that says why, not printed as done and dropped;
//   6, 7. `kubectl create token` issues a token that authenticates as the
//      ServiceAccount (`kubectl auth whoami`), at this tenant's gateway URL only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { usePropagationEnv } from '../helpers/propagation-env.ts';
import { kubectl } from '../helpers/kubectl.ts';
import { eventually } from '../helpers/poll.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';

const VERSIONS = ['1.27', '1.33'];

const DEPLOYMENT = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted,
      weightPreference: {staticWeightList: [{targetCluster: {clusterNames: [member1]}, weight: 1}, {targetCluster: {clusterNames: [member2]}, weight: 1}]}}
`;

const CLUSTER_ROLE = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: reader}
spec:
  resourceSelectors: [{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

/** The NAME column of a kubectl table (first column, header dropped). */
const names = (stdout: string): string[] => stdout.trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/)[0] ?? '');

describe('e2e: the tenant\'s everyday cluster (issue 14)', { timeout: 600_000 }, () => {
  const env = usePropagationEnv('everyday');
  const kubeconfigOf = (tenant: string): string => join(env.root, 'tenants', `${tenant}.kubeconfig`);
  const as = (version: string, tenant: string) => async (...args: string[]): Promise<string> => {
    const r = await kubectl(version, args, { kubeconfigPath: kubeconfigOf(tenant) });
    assert.equal(r.code, 0, `kubectl ${version} ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  it('1: --sort-by prints every row, sorted, for cluster-scoped, all-namespaces and one-namespace reads', async () => {
    await env.as('acme')('create', 'configmap', 'zeta', '--from-literal=a=b');
    await env.as('acme')('create', 'configmap', 'alpha', '--from-literal=a=b');
    for (const v of VERSIONS) {
      const k = as(v, 'acme');
      const ns = names(await k('get', 'namespaces', '--sort-by=.metadata.name'));
      assert.ok(ns.includes('default') && ns.includes('kube-system'), `kubectl ${v}: namespaces ${JSON.stringify(ns)}`);
      assert.deepEqual(ns, [...ns].sort(), `kubectl ${v}: sorted`);
      const inDefault = names(await k('get', 'configmaps', '-n', 'default', '--sort-by=.metadata.name'));
      assert.deepEqual(inDefault.filter((n) => n === 'alpha' || n === 'zeta'), ['alpha', 'zeta'], `kubectl ${v}: ${JSON.stringify(inDefault)}`);
      const all = (await k('get', 'configmaps', '-A', '--sort-by=.metadata.name')).trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/)[1] ?? '');
      assert.ok(all.includes('alpha') && all.includes('zeta'), `kubectl ${v}: all namespaces ${JSON.stringify(all)}`);
      assert.deepEqual(all, [...all].sort(), `kubectl ${v}: sorted across namespaces`);
      const roles = names(await k('get', 'clusterroles', '--sort-by=.metadata.name'));
      assert.ok(roles.includes('view') && roles.every((r) => r !== ''), `kubectl ${v}: clusterroles ${JSON.stringify(roles.slice(0, 5))}`);
    }
  });

  it('4: kubectl get crb (and cpp) shows the tenant\'s names, and that name works', async () => {
    const id = env.idOf('acme');
    await env.apply('acme', CLUSTER_ROLE, 'reader.yaml');
    await eventually(async () => (await env.run('acme', 'get', 'clusterresourcebindings', '-o', 'name')).stdout.includes('reader-clusterrole'), 'the ClusterResourceBinding exists', { timeoutMs: 60_000 });
    for (const v of VERSIONS) {
      const k = as(v, 'acme');
      for (const resource of ['crb', 'clusterresourcebindings.work.karmada.io', 'cpp']) {
        const out = await k('get', resource);
        assert.ok(!out.includes(`${id}-`), `kubectl ${v} get ${resource} shows no prefix:\n${out}`);
      }
      assert.deepEqual(names(await k('get', 'crb')), ['reader-clusterrole']);
      assert.deepEqual(names(await k('get', 'cpp')), ['reader']);
      const one = await k('get', 'crb', names(await k('get', 'crb'))[0] ?? '');
      assert.deepEqual(names(one), ['reader-clusterrole']);
    }
  });

  it('2: rollout status and wait --for=condition=Available finish on a propagated Deployment, also after an update', async () => {
    await env.apply('acme', DEPLOYMENT, 'web.yaml');
    for (const v of VERSIONS) {
      const k = as(v, 'acme');
      assert.match(await k('rollout', 'status', 'deployment/web', '--timeout=180s'), /successfully rolled out/);
      assert.match(await k('wait', '--for=condition=Available', 'deployment/web', '--timeout=180s'), /condition met/);
    }
    const status = JSON.parse(await env.as('acme')('get', 'deployment', 'web', '-o', 'json')) as { metadata: { generation: number }; status: { observedGeneration?: number; conditions?: Array<{ type: string; status: string; reason: string }> } };
    assert.equal(status.status.observedGeneration, status.metadata.generation);
    assert.deepEqual(status.status.conditions?.map((c) => [c.type, c.status, c.reason]), [['Available', 'True', 'MinimumReplicasAvailable'], ['Progressing', 'True', 'NewReplicaSetAvailable']]);
    await env.as('acme')('set', 'image', 'deployment/web', 'web=nginx:1.27');
    for (const v of VERSIONS) assert.match(await as(v, 'acme')('rollout', 'status', 'deployment/web', '--timeout=180s'), /successfully rolled out/);
    const after = JSON.parse(await env.as('acme')('get', 'deployment', 'web', '-o', 'json')) as { metadata: { generation: number }; status: { observedGeneration?: number } };
    assert.equal(after.status.observedGeneration, after.metadata.generation, 'the new generation observed');
  });

  for (const v of VERSIONS) {
    it(`5: kubectl ${v}: a label edit that cannot apply is refused with 403, and nothing changes`, async () => {
      const run = (...args: string[]) => kubectl(v, args, { kubeconfigPath: kubeconfigOf('acme') });
      const psa = await run('label', 'ns', 'default', 'pod-security.kubernetes.io/enforce=privileged', '--overwrite');
      assert.notEqual(psa.code, 0, 'not "labeled"');
      assert.match(psa.stderr, /Error from server \(Forbidden\): namespaces "default" is forbidden: .*pod-security\.kubernetes\.io\/enforce is set by the platform/);
      const tenantLabel = await run('label', 'ns', 'default', 'tenancy.warren.dev/tenant=other');
      assert.notEqual(tenantLabel.code, 0);
      assert.match(tenantLabel.stderr, /Forbidden.*the label tenancy\.warren\.dev\/tenant is set by the platform/);
      for (const r of [psa, tenantLabel]) assert.doesNotMatch(r.stderr, new RegExp(`${env.idOf('acme')}-`), 'in tenant terms');
      const labels = JSON.parse(await as(v, 'acme')('get', 'ns', 'default', '-o', 'jsonpath={.metadata.labels}') || '{}') as Record<string, string>;
      assert.notEqual(labels['pod-security.kubernetes.io/enforce'], 'privileged');
      assert.equal(labels['tenancy.warren.dev/tenant'], undefined);
    });

    it(`6, 7: kubectl ${v}: create token authenticates as the ServiceAccount (auth whoami), and only at its own tenant's URL`, async () => {
      const ns = `tokens-${v.replace('.', '-')}`;
      const acme = as(v, 'acme');
      await acme('create', 'namespace', ns);
      await acme('-n', ns, 'create', 'serviceaccount', 'bot');
      const token = (await acme('-n', ns, 'create', 'token', 'bot')).trim();
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      // A kubeconfig with the token alone (kubectl would send a client certificate first).
      const withToken = (tenant: string): string => {
        const doc = parse(readFileSync(kubeconfigOf(tenant), 'utf8')) as { users: Array<{ user: Record<string, string> }> };
        for (const u of doc.users) u.user = { token };
        const path = join(env.root, `${tenant}-bot-${v}.kubeconfig`);
        writeFileSync(path, stringify(doc));
        return path;
      };
      const whoami = await kubectl(v, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], { kubeconfigPath: withToken('acme') });
      assert.equal(whoami.code, 0, whoami.stderr);
      assert.equal(whoami.stdout, `system:serviceaccount:${ns}:bot`);
      // No grant yet: the ServiceAccount is refused as kube refuses it, in tenant terms.
      const denied = await kubectl(v, ['-n', ns, 'get', 'configmaps'], { kubeconfigPath: withToken('acme') });
      assert.notEqual(denied.code, 0);
      assert.match(denied.stderr, new RegExp(`User "system:serviceaccount:${ns}:bot" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`));
      // Another tenant's gateway URL does not take it.
      const elsewhere = await kubectl(v, ['get', 'configmaps'], { kubeconfigPath: withToken('globex') });
      assert.notEqual(elsewhere.code, 0, 'acme\'s token must not work at globex\'s URL');
      // The gateway answers a credential at another tenant's URL as if that URL served nothing (its tenant-URL check).
      assert.match(elsewhere.stderr, /Unauthorized|must be logged in|Forbidden|could not find the requested resource/);
      assert.doesNotMatch(elsewhere.stdout, /kube-root-ca|NAME/);
      await acme('delete', 'namespace', ns, '--wait=false');
    });
  }

  it('3: the object quota counts what the tenant sees (its kubeconfig Secret in warren-system does not count)', async () => {
    const host = createUpstream({ path: env.up().adminKubeconfigPath });
    try {
      const patched = await host.request('PATCH', '/apis/tenancy.warren.dev/v1alpha1/tenants/globex', { spec: { quota: { objectsPerResource: 3 } } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
    } finally {
      host.close();
    }
    const g = env.as('globex');
    // Creates Secrets until the quota refuses one (the gateway learns the new quota from the Tenant within moments).
    let i = 0;
    let refusal = '';
    await eventually(async () => {
      const r = await env.run('globex', 'create', 'secret', 'generic', `s${i++}`, '--from-literal=a=b');
      if (r.code !== 0) refusal = r.stderr;
      return r.code !== 0;
    }, 'a Secret refused by the quota', { timeoutMs: 60_000 });
    assert.match(refusal, /exceeded quota: tenant-quota, requested: count\/secrets=1, used: count\/secrets=3, limited: count\/secrets=3/);
    const visible = (await g('get', 'secrets', '-A', '-o', 'name')).trim().split('\n').filter(Boolean);
    assert.equal(visible.length, 3, `the tenant sees exactly the three Secrets the quota allows: ${visible.join(', ')}`);
    // kubectl 1.27 gets the same answer: three visible, the fourth refused.
    const old = await kubectl('1.27', ['create', 'secret', 'generic', 'with-1-27', '--from-literal=a=b'], { kubeconfigPath: kubeconfigOf('globex') });
    assert.notEqual(old.code, 0);
    assert.match(old.stderr, /exceeded quota: tenant-quota, requested: count\/secrets=1, used: count\/secrets=3, limited: count\/secrets=3/);
    assert.equal((await as('1.27', 'globex')('get', 'secrets', '-A', '-o', 'name')).trim().split('\n').filter(Boolean).length, 3);
  });
});
