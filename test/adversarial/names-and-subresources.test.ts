// Boundary: prefixed cluster-scoped names judged in tenant terms, and the
// subresources issue 13 had not tried yet (scale, pods/binding, eviction,
// ephemeralcontainers, CSR approval, serviceaccounts/token, pods/log and exec)
// aimed at acme's objects by their upstream spelling and by guessed names.
// Globex attacks over raw HTTPS (and kubectl for the names); every verdict is
// also read on the host and on each member.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH, type HttpResult } from '../helpers/kube-http.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused } from './support/verdicts.ts';

const MEMBERS = ['member1', 'member2'];

describe('adversarial: prefixed names in tenant terms, untried subresources', { timeout: 300_000 }, () => {
  const env = useAdversaryEnv('names-and-subresources');
  let acmeId = '';
  let globexId = '';
  const globex = () => env.http('globex');
  const ids = (): string[] => [acmeId, globexId];

  /** A refusal (4xx) that shows neither tenant's upstream prefix. */
  function refusedQuietly(res: HttpResult, what: string): void {
    assert.ok(res.status >= 400 && res.status < 500, `${what}: refused, got ${res.status} ${res.text.slice(0, 300)}`);
    for (const id of ids()) assert.ok(!res.text.includes(`${id}-`), `${what}: prefix ${id}- in ${res.text.slice(0, 300)}`);
  }

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('acme')('create', 'namespace', 'shop');
    await env.as('acme')('create', 'deployment', 'web', '-n', 'shop', '--image=nginx', '--replicas=1');
    await env.as('acme')('create', 'serviceaccount', 'robot', '-n', 'shop');
    const pod = await env.http('acme').post('/api/v1/namespaces/shop/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.equal(pod.status, 201, pod.text.slice(0, 300));
    await env.as('globex')('create', 'namespace', 'shop');
  });

  it('cluster-scoped prefixed names: kube\'s rule and limit minus the prefix, in the tenant\'s name, nothing stored', async () => {
    const before = await env.host().request<{ items: KubeObject[] }>('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles');
    for (const name of ['.', '..']) {
      const res = await globex().post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: [] });
      assertRefused(res, 422, `ClusterRole ${JSON.stringify(name)}`, ids());
      assert.match(res.body.message, new RegExp(`may not be '${name.replace(/\./g, '\\.')}'`));
    }
    const after = await env.host().request<{ items: KubeObject[] }>('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles');
    assert.equal(after.body.items.length, before.body.items.length, 'no ClusterRole stored');

    const cpp = (name: string) => ({ apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', metadata: { name },
      spec: { resourceSelectors: [{ apiVersion: 'v1', kind: 'Namespace', name: 'nothing-here' }], placement: { clusterAffinity: { clusterNames: ['member2'] } } } });
    const over = 'p'.repeat(250);
    const res = await globex().post('/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies', cpp(over));
    assertRefused(res, 422, 'a 250-character ClusterPropagationPolicy', ids());
    assert.match(res.body.message, /must be no more than 246 characters/);
    assert.ok(res.body.message.includes(`"${over}"`), 'the message names the tenant\'s own name');
    assert.equal((await env.host().request('GET', `/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies/${globexId}-${over}`)).status, 404, 'nothing on the host');
    const fits = await globex().post('/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies', cpp('q'.repeat(246)));
    assert.equal(fits.status, 201, `246 characters fit: ${fits.text.slice(0, 300)}`);

    const kubectl = await env.kubectlWith(env.kubeconfigPath('globex'), ['create', 'clusterrole', '..', '--verb=get', '--resource=pods']);
    assert.notEqual(kubectl.code, 0, 'kubectl create clusterrole ".." is refused');
    assert.doesNotMatch(kubectl.stderr, new RegExp(`${globexId}-|${acmeId}-`));
  });

  it('generateName starting with "-" is refused for prefixed kinds (valid upstream once prefixed)', async () => {
    const nsBefore = await env.host().request<{ items: KubeObject[] }>('GET', '/api/v1/namespaces');
    const res = await globex().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: '-x' } });
    assertRefused(res, 422, 'Namespace generateName "-x"', ids());
    assert.match(res.body.message, /metadata\.generateName: Invalid value: "-x"/);
    const cr = await globex().post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: '.' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [] });
    assertRefused(cr, 422, 'ClusterRoleBinding "."', ids());
    const nsAfter = await env.host().request<{ items: KubeObject[] }>('GET', '/api/v1/namespaces');
    assert.deepEqual(nsAfter.body.items.map((n) => n.metadata.name).filter((n) => n?.startsWith(`${globexId}--`)), [], 'no namespace <globex>--x… on the host');
    assert.equal(nsAfter.body.items.length, nsBefore.body.items.length);
  });

  it('subresources aimed at acme: scale, binding, eviction, ephemeralcontainers, CSR approval, token, log, exec', async () => {
    const a = `${acmeId}-shop`;
    const attacks: Array<[string, () => Promise<HttpResult>]> = [];
    for (const ns of [a, 'shop']) {
      attacks.push(
        [`scale ${ns}/web (merge)`, () => globex().patch(`/apis/apps/v1/namespaces/${ns}/deployments/web/scale`, PATCH.merge, { spec: { replicas: 7 } })],
        [`scale ${ns}/web (PUT)`, () => globex().put(`/apis/apps/v1/namespaces/${ns}/deployments/web/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: ns }, spec: { replicas: 7 } })],
        [`binding ${ns}/p`, () => globex().post(`/api/v1/namespaces/${ns}/pods/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', namespace: ns }, target: { apiVersion: 'v1', kind: 'Node', name: 'n1' } })],
        [`eviction ${ns}/p`, () => globex().post(`/api/v1/namespaces/${ns}/pods/p/eviction`, { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'p', namespace: ns } })],
        [`ephemeralcontainers ${ns}/p`, () => globex().patch(`/api/v1/namespaces/${ns}/pods/p/ephemeralcontainers`, PATCH.strategic, { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } })],
        [`token for ${ns}/robot`, () => globex().post(`/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } })],
        [`log of ${ns}/p`, () => globex().get(`/api/v1/namespaces/${ns}/pods/p/log`)],
        [`exec into ${ns}/p (plain POST)`, () => globex().post(`/api/v1/namespaces/${ns}/pods/p/exec?command=id&stdout=true`, undefined)],
      );
    }
    attacks.push(
      ['CSR approval', () => globex().put('/apis/certificates.k8s.io/v1/certificatesigningrequests/x/approval', { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'x' }, status: { conditions: [{ type: 'Approved', status: 'True' }] } })],
      ['CSR create', () => globex().post('/apis/certificates.k8s.io/v1/certificatesigningrequests', { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'x' }, spec: { request: 'eA==', signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] } })],
    );
    for (const [what, run] of attacks) {
      const res = await run();
      refusedQuietly(res, what);
      assert.ok(!/"token"\s*:/.test(res.text), `${what}: no token`);
    }
    // The host: acme's Deployment keeps 1 replica, its Pod stays, unbound by globex, without ephemeral containers.
    const dep = await env.host().request<KubeObject & { spec: { replicas: number } }>('GET', `/apis/apps/v1/namespaces/${a}/deployments/web`);
    assert.equal(dep.body.spec.replicas, 1, 'acme\'s Deployment not scaled');
    const pod = await env.host().request<KubeObject & { spec: { nodeName?: string; ephemeralContainers?: unknown[] } }>('GET', `/api/v1/namespaces/${a}/pods/p`);
    assert.equal(pod.status, 200, 'acme\'s Pod not evicted');
    assert.notEqual(pod.body.spec.nodeName, 'n1', 'not bound by globex');
    assert.equal(pod.body.spec.ephemeralContainers, undefined, 'no ephemeral container');
    // Each member: nothing of acme's there was changed by globex's attempts either.
    for (const member of MEMBERS) {
      const deps = await env.member(member).request<{ items: Array<KubeObject & { spec: { replicas?: number } }> }>('GET', '/apis/apps/v1/deployments');
      for (const d of deps.body.items.filter((x) => x.metadata.namespace?.startsWith(`${acmeId}-`))) assert.notEqual(d.spec.replicas, 7, `${member}: acme's ${d.metadata.name} not scaled`);
      const pods = await env.member(member).request<{ items: Array<KubeObject & { spec: { ephemeralContainers?: unknown[] } }> }>('GET', '/api/v1/pods');
      for (const p of pods.body.items) assert.equal(p.spec.ephemeralContainers, undefined, `${member}: no ephemeral container on ${p.metadata.namespace}/${p.metadata.name}`);
    }
  });
});
