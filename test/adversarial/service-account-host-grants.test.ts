// Boundary (ADR 0028, ADR 0020): tenant ServiceAccounts hold no grant on the
// host or on a member. globex (hostile, allowed member2) binds its
// ServiceAccount to everything kube lets it name: a RoleBinding and a
// ClusterRoleBinding to its cluster-admin, its namespace's ServiceAccount
// group, the ServiceAccount's user name, and propagates the ServiceAccount,
// the ClusterRole and the ClusterRoleBinding to member2. Then:
//   - at the gateway the grants hold, in globex's names (auth can-i, bindings);
//   - a host token of that ServiceAccount (TokenRequest on the host, what a Pod
//     gets mounted) may do nothing on the host: globex's own namespace, acme's;
//   - a member token of its copy on member2 (what a Pod there gets) may do
//     nothing on member2 either, and no RBAC object there names it.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify } from 'yaml';
import { readFileSync } from 'node:fs';
import type { Upstream } from '../../src/kube/upstream.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { kubectl } from '../helpers/kubectl.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';

const RBAC = 'rbac.authorization.k8s.io';

describe('adversarial: tenant ServiceAccounts hold no host or member grants', { timeout: 600_000 }, () => {
  const env = useAdversaryEnv('service-account-host-grants');
  let globexId = '';
  let acmeId = '';

  /** A token the cluster itself issues for the ServiceAccount (as its kubelet would mount one). */
  const clusterToken = async (cluster: Upstream, namespace: string): Promise<string> => {
    const res = await cluster.request<any>('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/robot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.status.token as string;
  };
  /** The cluster's admin kubeconfig, authenticating with `token` instead. */
  const as = (kubeconfigPath: string, token: string): KubeHttp => {
    const doc = parse(readFileSync(kubeconfigPath, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
    for (const u of doc.users) u.user = { token };
    return new KubeHttp(stringify(doc));
  };
  const powers = async (client: KubeHttp, namespaces: string[]): Promise<Record<string, number>> => {
    const out: Record<string, number> = {};
    for (const ns of namespaces) {
      out[`list secrets in ${ns}`] = (await client.get(`/api/v1/namespaces/${ns}/secrets`)).status;
      out[`create configmap in ${ns}`] = (await client.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' } })).status;
    }
    out['list pods everywhere'] = (await client.get('/api/v1/pods')).status;
    out['create a clusterrolebinding'] = (await client.post(`/apis/${RBAC}/v1/clusterrolebindings`, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'probe' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [] })).status;
    return out;
  };
  const allForbidden = (got: Record<string, number>): Record<string, number> => Object.fromEntries(Object.keys(got).map((k) => [k, 403]));

  before(async () => {
    globexId = env.idOf('globex');
    acmeId = env.idOf('acme');
    await env.as('acme')('create', 'namespace', 'bots');
    const manifest = env.file('robot.yaml', `
apiVersion: v1
kind: Namespace
metadata: { name: robots }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: robot, namespace: robots }
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: { name: robot-god }
rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }]
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: { name: robot-admin, namespace: robots }
roleRef: { apiGroup: ${RBAC}, kind: ClusterRole, name: cluster-admin }
subjects:
- { kind: ServiceAccount, name: robot, namespace: robots }
- { kind: ServiceAccount, name: robot }
- { kind: User, apiGroup: ${RBAC}, name: "system:serviceaccount:robots:robot" }
- { kind: Group, apiGroup: ${RBAC}, name: "system:serviceaccounts:robots" }
---
apiVersion: ${RBAC}/v1
kind: ClusterRoleBinding
metadata: { name: robot-god }
roleRef: { apiGroup: ${RBAC}, kind: ClusterRole, name: robot-god }
subjects: [{ kind: ServiceAccount, name: robot, namespace: robots }, { kind: Group, apiGroup: ${RBAC}, name: "system:serviceaccounts" }]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: robot-rbac }
spec:
  resourceSelectors:
  - { apiVersion: ${RBAC}/v1, kind: ClusterRole, name: robot-god }
  - { apiVersion: ${RBAC}/v1, kind: ClusterRoleBinding, name: robot-god }
  placement: { clusterAffinity: { clusterNames: [member2] } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: robot, namespace: robots }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: ServiceAccount, name: robot }]
  placement: { clusterAffinity: { clusterNames: [member2] } }
`);
    // Without validation (no OpenAPI download) and with time: on a loaded machine the default 30 s was not enough.
    const applied = await kubectl('1.33', ['apply', '--validate=false', '-f', manifest], { kubeconfigPath: env.kubeconfigPath('globex'), timeoutMs: 180_000 });
    assert.equal(applied.code, 0, applied.stderr);
  });

  it('at the gateway the tenant\'s grants to its ServiceAccount hold, listed in its own names', async () => {
    const hank = env.as('globex');
    await eventually(async () => (await env.run('globex', 'auth', 'can-i', 'delete', 'secrets', '-n', 'robots', '--as=system:serviceaccount:robots:robot')).stdout.trim() === 'yes', 'robot may delete secrets in robots', { timeoutMs: 30_000 });
    assert.equal((await env.run('globex', 'auth', 'can-i', 'create', 'deployments', '-A', '--as=system:serviceaccount:robots:robot')).stdout.trim(), 'yes', 'the ClusterRoleBinding holds across globex\'s namespaces');
    const rb = JSON.parse(await hank('get', 'rolebinding', 'robot-admin', '-n', 'robots', '-o', 'json')) as { subjects: unknown[] };
    assert.deepEqual(rb.subjects, [
      { kind: 'ServiceAccount', name: 'robot', namespace: 'robots' },
      { kind: 'ServiceAccount', name: 'robot', namespace: 'robots' }, // kube's default namespace (the binding's), made explicit
      { kind: 'ServiceAccount', name: 'robot', namespace: 'robots' }, // the same identity as a User: shown as the ServiceAccount it is
      { kind: 'Group', apiGroup: RBAC, name: 'system:serviceaccounts:robots' },
    ]);
    const crb = JSON.parse(await hank('get', 'clusterrolebinding', 'robot-god', '-o', 'json')) as { subjects: unknown[] };
    assert.deepEqual(crb.subjects, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'robots' }, { kind: 'Group', apiGroup: RBAC, name: 'system:serviceaccounts' }]);
  });

  it('on the host, the ServiceAccount\'s own token may do nothing, and no binding names a host identity', async () => {
    const token = await clusterToken(env.host(), `${globexId}-robots`);
    const got = await powers(as(env.up().adminKubeconfigPath, token), [`${globexId}-robots`, `${acmeId}-bots`]);
    assert.deepEqual(got, allForbidden(got));
    for (const path of [`/apis/${RBAC}/v1/namespaces/${globexId}-robots/rolebindings`, `/apis/${RBAC}/v1/clusterrolebindings`]) {
      const items = (await env.host().request<any>('GET', path)).body.items as Array<{ metadata: { name: string }; subjects?: Array<{ kind: string; name: string }> }>;
      for (const b of items.filter((i) => i.metadata.name === 'robot-admin' || i.metadata.name.startsWith(`${globexId}-`))) {
        for (const s of b.subjects ?? []) assert.ok(s.kind !== 'ServiceAccount' && s.name.startsWith(`warren:${globexId}:`), `${b.metadata.name}: ${JSON.stringify(s)}`);
      }
    }
  });

  it('on member2, the propagated ServiceAccount\'s member token may do nothing, and nothing there binds it', async () => {
    const member2 = env.member('member2');
    // Positive signals: the engine has acted on member2 (the ServiceAccount and the ClusterRole landed).
    await eventually(async () => (await member2.request('GET', `/api/v1/namespaces/${globexId}-robots/serviceaccounts/robot`)).status === 200, 'robot is on member2', { timeoutMs: 90_000 });
    await eventually(async () => (await member2.request('GET', `/apis/${RBAC}/v1/clusterroles/${globexId}-robot-god`)).status === 200, 'the ClusterRole is on member2', { timeoutMs: 90_000 });
    assert.equal((await member2.request('GET', `/apis/${RBAC}/v1/clusterrolebindings/${globexId}-robot-god`)).status, 404, 'ClusterRoleBindings are not propagated (ADR 20)');
    for (const path of [`/apis/${RBAC}/v1/rolebindings`, `/apis/${RBAC}/v1/clusterrolebindings`]) {
      const items = (await member2.request<any>('GET', path)).body.items as Array<{ metadata: { name: string }; subjects?: Array<{ kind: string; name: string; namespace?: string }> }>;
      for (const b of items) {
        for (const s of b.subjects ?? []) {
          assert.ok(!(s.namespace ?? '').startsWith(`${globexId}-`) && !s.name.includes(`${globexId}-`), `${b.metadata.name} on member2 names globex's ServiceAccount: ${JSON.stringify(s)}`);
        }
      }
    }
    const token = await clusterToken(member2, `${globexId}-robots`);
    const got = await powers(as(env.up().memberKubeconfigPaths.member2 ?? '', token), [`${globexId}-robots`]);
    assert.deepEqual(got, allForbidden(got));
  });
});
