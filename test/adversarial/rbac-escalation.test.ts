// Boundary: tenant RBAC, as kube's RBAC holds it (escalate, bind, impersonate).
// acme's admin alice grants bob narrow rights in namespace team; bob then tries
// to turn them into more (break 4): binding himself cluster-admin with only
// `create rolebindings`, rewriting the one Role he may update to */*/*, and
// acting as someone else with `kubectl --as` without the right to impersonate.
// With the right, impersonation is honoured (the impersonated user's rights,
// not the caller's), and `kubectl auth can-i --as` tells the truth. Each
// refusal is checked on the host too: nothing was stored or changed there.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertKubectlForbidden, assertRefused } from './support/verdicts.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

// alice's grants to bob (and to carol, who exists only as a name to impersonate).
const GRANTS = `
apiVersion: v1
kind: Namespace
metadata: { name: team }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: plans, namespace: team }
data: { secret: "for carol and alice" }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: rb-maker, namespace: team }
rules: [{ apiGroups: [rbac.authorization.k8s.io], resources: [rolebindings], verbs: [create] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: bob-own, namespace: team }
rules: [{ apiGroups: [""], resources: [pods], verbs: [get, list] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: bob-editor, namespace: team }
rules: [{ apiGroups: [rbac.authorization.k8s.io], resources: [roles], resourceNames: [bob-own], verbs: [get, update, patch] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: bob, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: bob-own }
subjects: [{ kind: User, name: bob, apiGroup: rbac.authorization.k8s.io }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: bob-rb-maker, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: rb-maker }
subjects: [{ kind: User, name: bob, apiGroup: rbac.authorization.k8s.io }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: bob-editor, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: bob-editor }
subjects: [{ kind: User, name: bob, apiGroup: rbac.authorization.k8s.io }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: plans-reader, namespace: team }
rules: [{ apiGroups: [""], resources: [configmaps], verbs: [get, list] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: carol, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: plans-reader }
subjects: [{ kind: User, name: carol, apiGroup: rbac.authorization.k8s.io }]
`;

// Given only after the no-rights checks: bob may impersonate the user carol, nobody else, no group.
const IMPERSONATE_CAROL = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: impersonate-carol }
rules: [{ apiGroups: [""], resources: [users], resourceNames: [carol], verbs: [impersonate] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: bob-impersonates-carol }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonate-carol }
subjects: [{ kind: User, name: bob, apiGroup: rbac.authorization.k8s.io }]
`;

describe('adversarial: tenant RBAC escalation and impersonation', { timeout: 240_000 }, () => {
  const env = useAdversaryEnv('rbac');
  let acmeId = '';
  let globexId = '';
  let bobConfig = '';
  const bob = (args: string[], version?: string) => env.kubectlWith(bobConfig, args, version);
  const hostGet = async (path: string): Promise<{ status: number; body: KubeObject }> => env.host().request<KubeObject>('GET', path);

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.apply('acme', GRANTS, 'grants.yaml');
    bobConfig = await env.issueUser('acme', 'bob');
    const sanity = await bob(['get', 'pods', '-n', 'team']);
    assert.equal(sanity.code, 0, `bob may list pods in team: ${sanity.stderr}`);
  });

  it('break 4: with only `create rolebindings`, bob cannot bind himself cluster-admin or admin (403), with kubectl 1.27 and 1.33', async () => {
    assertKubectlForbidden(await bob(['create', 'rolebinding', 'bob-admin', '-n', 'team', '--clusterrole=cluster-admin', '--user=bob'], '1.27'), 'bind cluster-admin (kubectl 1.27)');
    assertKubectlForbidden(await bob(['create', 'rolebinding', 'bob-admin2', '-n', 'team', '--clusterrole=admin', '--group=developers']), 'bind admin to his group (kubectl 1.33)');
    const raw = await env.http('acme', bobConfig).post(`${RBAC}/namespaces/team/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'bob-admin3' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    assertRefused(raw, 403, 'raw POST of the cluster-admin RoleBinding', [acmeId]);
    for (const name of ['bob-admin', 'bob-admin2', 'bob-admin3']) {
      assert.equal((await hostGet(`${RBAC}/namespaces/${acmeId}-team/rolebindings/${name}`)).status, 404, `no RoleBinding ${name} on the host`);
    }
    const canI = await bob(['auth', 'can-i', 'get', 'secrets', '-n', 'team']);
    assert.equal(canI.stdout.trim(), 'no', 'bob still cannot read secrets');
  });

  it('break 4: bob, allowed to update only his own Role, cannot rewrite its rules to */*/* (403); the host Role is unchanged', async () => {
    const star = '[{"op":"replace","path":"/rules","value":[{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}]}]';
    assertKubectlForbidden(await bob(['patch', 'role', 'bob-own', '-n', 'team', '--type', 'json', '-p', star]), 'patch bob-own to */*/*');
    const current = await env.http('acme', bobConfig).get(`${RBAC}/namespaces/team/roles/bob-own`);
    assert.equal(current.status, 200, `bob may read bob-own: ${current.text}`);
    const widened = { ...(current.body as KubeObject), rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }] };
    assertRefused(await env.http('acme', bobConfig).put(`${RBAC}/namespaces/team/roles/bob-own`, widened), 403, 'PUT bob-own with secrets', [acmeId]);
    const upstream = await hostGet(`${RBAC}/namespaces/${acmeId}-team/roles/bob-own`);
    assert.deepEqual((upstream.body as { rules?: unknown }).rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], 'the host Role keeps its rules');
    // A rewrite that stays within what bob holds is still his to make (the rule is escalation, not a freeze).
    const narrowed = await bob(['patch', 'role', 'bob-own', '-n', 'team', '--type', 'json', '-p', '[{"op":"replace","path":"/rules/0/verbs","value":["get"]}]']);
    assert.equal(narrowed.code, 0, `bob may narrow his own Role: ${narrowed.stderr}`);
  });

  it('break 4: `kubectl --as` without impersonate rights is refused (403), never run as the caller', async () => {
    const asCarol = await bob(['get', 'pods', '-n', 'team', '--as=carol']);
    assertKubectlForbidden(asCarol, 'bob --as=carol without rights');
    assert.match(asCarol.stderr, /impersonate/i, 'the refusal is about impersonation');
    assertKubectlForbidden(await bob(['get', 'pods', '-n', 'team', '--as=bob', '--as-group=system:masters']), 'bob --as-group=system:masters');
    // Raw headers too: the gateway may not strip them and carry on as bob.
    const raw = await env.http('acme', bobConfig).get('/api/v1/namespaces/team/pods', { 'Impersonate-User': 'alice' });
    assertRefused(raw, 403, 'raw Impersonate-User: alice', [acmeId]);
    const canI = await bob(['auth', 'can-i', 'list', 'pods', '-n', 'team', '--as=carol']);
    assert.notEqual(canI.stdout.trim(), 'yes', `can-i --as=carol without rights must not answer for bob: ${canI.stdout}${canI.stderr}`);
  });

  it('break 4: with the right to impersonate carol, --as=carol is honoured with carol\'s rights, and can-i tells the truth', async () => {
    await env.apply('acme', IMPERSONATE_CAROL, 'impersonate-carol.yaml');
    const plans = await bob(['get', 'configmap', 'plans', '-n', 'team', '--as=carol', '-o', 'jsonpath={.data.secret}']);
    assert.equal(plans.code, 0, `carol may read plans: ${plans.stderr}`);
    assert.equal(plans.stdout, 'for carol and alice');
    assertKubectlForbidden(await bob(['get', 'pods', '-n', 'team', '--as=carol']), 'bob --as=carol lists pods with carol\'s rights (none)');
    assert.equal((await bob(['auth', 'can-i', 'list', 'pods', '-n', 'team', '--as=carol'])).stdout.trim(), 'no', 'can-i --as=carol list pods');
    assert.equal((await bob(['auth', 'can-i', 'get', 'configmaps', '-n', 'team', '--as=carol'])).stdout.trim(), 'yes', 'can-i --as=carol get configmaps');
    assert.equal((await bob(['auth', 'can-i', 'get', 'configmaps', '-n', 'team'])).stdout.trim(), 'no', 'bob himself still cannot');
    assertKubectlForbidden(await bob(['get', 'configmaps', '-n', 'team', '--as=alice']), 'bob may impersonate carol, not alice');
    assertKubectlForbidden(await bob(['get', 'configmaps', '-n', 'team', '--as=carol', '--as-group=system:masters']), 'no right to impersonate groups');
  });

  it('impersonation stays inside the tenant: globex\'s admin --as acme\'s users or system:masters sees only globex', async () => {
    const hank = (args: string[]) => env.kubectlWith(env.kubeconfigPath('globex'), args);
    for (const as of [['--as=alice'], ['--as=system:admin', '--as-group=system:masters'], [`--as=system:serviceaccount:${acmeId}-team:default`]]) {
      const r = await hank(['get', 'namespaces', '-o', 'name', ...as]);
      // A refusal echoes the name the caller sent (kube's message does too); only what it did not write counts.
      const text = as.reduce((t, flag) => t.replaceAll(flag.slice(flag.indexOf('=') + 1), '<sent>'), r.stdout + r.stderr);
      assert.ok(!text.includes(acmeId) && !text.includes('team') && !text.includes(globexId), `hank ${as.join(' ')} sees nothing of acme and no prefix: ${text}`);
      const cm = await hank(['get', 'configmap', 'plans', '-n', 'team', ...as]);
      assert.notEqual(cm.code, 0, `hank ${as.join(' ')} cannot read acme's plans: ${cm.stdout}`);
      assert.ok(!cm.stdout.includes('for carol'), 'no acme data');
    }
  });
});
