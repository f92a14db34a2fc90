// RBAC on the apiserver itself: a user outside system:masters (here a
// ServiceAccount, through a token from the TokenRequest API, which any server
// with ServiceAccount tokens issues) gets only what kube's bootstrap roles and
// its own bindings grant, and kube's 403 for the rest. A Role in one namespace
// never grants in another.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';

describe('RBAC for users outside system:masters', { timeout: 120_000 }, () => {
  const ctx = useContractServer();

  async function serviceAccountClient(ns: string, name: string): Promise<KubeHttp> {
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } })).status, 201);
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    assert.equal(res.status, 201, res.text);
    const kc = ctx.server.kubeConfig;
    const cluster = kc.getCurrentCluster();
    assert.ok(cluster);
    const yaml = JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'sa',
      clusters: [{ name: 'c', cluster: { server: cluster.server, ...(cluster.caData ? { 'certificate-authority-data': cluster.caData } : {}), ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}) } }],
      users: [{ name: 'sa', user: { token: res.body.status.token } }],
      contexts: [{ name: 'sa', context: { cluster: 'c', user: 'sa' } }],
    });
    return new KubeHttp(yaml);
  }

  it('a ServiceAccount without bindings reads discovery and asks what it may do, and gets kube\'s 403 for objects', async () => {
    const ns = await ctx.namespaces.create('rbac');
    const sa = await serviceAccountClient(ns, 'nobody');
    const user = `system:serviceaccount:${ns}:nobody`;
    // Bootstrap bindings for system:authenticated: discovery and self reviews.
    await eventually(async () => (await sa.get('/api')).status === 200, 'the token authenticates');
    assert.equal((await sa.get('/apis')).status, 200);
    assert.equal((await sa.get('/version')).status, 200);
    const review = await sa.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: ns, verb: 'list', resource: 'configmaps' } },
    });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.body.status.allowed, false);

    const list = await sa.get(`/api/v1/namespaces/${ns}/configmaps`);
    assert.equal(list.status, 403, list.text);
    assert.equal(list.body.reason, 'Forbidden');
    assert.equal(list.body.message, `configmaps is forbidden: User "${user}" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`);
    assert.deepEqual(list.body.details, { kind: 'configmaps' });
    const get = await sa.get(`/apis/apps/v1/namespaces/${ns}/deployments/web`);
    assert.equal(get.status, 403);
    assert.equal(get.body.message, `deployments.apps "web" is forbidden: User "${user}" cannot get resource "deployments" in API group "apps" in the namespace "${ns}"`);
    const create = await sa.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-x` } });
    assert.equal(create.status, 403);
    assert.equal(create.body.message, `namespaces is forbidden: User "${user}" cannot create resource "namespaces" in API group "" at the cluster scope`);
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}-x`)).status, 404, 'nothing created');
    const metrics = await sa.get('/metrics');
    assert.equal(metrics.status, 403);
    assert.equal(metrics.body.message, `forbidden: User "${user}" cannot get path "/metrics"`);
  });

  it('a RoleBinding grants its verbs in its own namespace only', async () => {
    const ns = await ctx.namespaces.create('rbac');
    const other = await ctx.namespaces.create('rbac');
    await ctx.http.post(`/api/v1/namespaces/${other}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'secret-ish' }, data: { a: '1' } });
    const sa = await serviceAccountClient(ns, 'reader');
    const role = await ctx.http.post(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    });
    assert.equal(role.status, 201, role.text);
    const binding = await ctx.http.post(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'cm-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns }],
    });
    assert.equal(binding.status, 201, binding.text);
    // A real apiserver's RBAC reads bindings from an informer: allow a moment.
    await eventually(async () => (await sa.get(`/api/v1/namespaces/${ns}/configmaps`)).status === 200, 'the binding takes effect');
    const write = await sa.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' } });
    assert.equal(write.status, 403, 'get and list only');
    // Adversarial: the same user reaching into another namespace, by list, by name, and across all namespaces.
    assert.equal((await sa.get(`/api/v1/namespaces/${other}/configmaps`)).status, 403);
    assert.equal((await sa.get(`/api/v1/namespaces/${other}/configmaps/secret-ish`)).status, 403);
    assert.equal((await sa.get('/api/v1/configmaps')).status, 403);
    const escalate = await sa.post(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'me-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns }],
    });
    assert.equal(escalate.status, 403, 'no rights on rolebindings');
  });
});
