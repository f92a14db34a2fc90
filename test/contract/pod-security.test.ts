// Pod Security admission by namespace labels: enforce refuses a pod with kube's
// 403, warn answers with a Warning header, workloads are warned and never refused,
// and a namespace with a bad level label is refused. Pod Security admission is on
// by default from kube 1.23; older servers (the real tier's 1.20) skip.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { serverMinor } from '../helpers/contract-features.ts';
import { useContractServer } from '../helpers/contract-suite.ts';
import { deployment, pod } from '../fixtures/objects.ts';
import { uniqueName } from '../helpers/test-namespace.ts';

const RESTRICTED_VIOLATIONS = 'allowPrivilegeEscalation != false (container "main" must set securityContext.allowPrivilegeEscalation=false), '
  + 'unrestricted capabilities (container "main" must set securityContext.capabilities.drop=["ALL"]), '
  + 'runAsNonRoot != true (pod or container "main" must set securityContext.runAsNonRoot=true), '
  + 'seccompProfile (pod or container "main" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('pod security admission', { timeout: 120_000 }, () => {
  const ctx = useContractServer();
  let skip: string | undefined;
  before(async () => {
    if ((await serverMinor(ctx.http)) < 23) skip = 'the server predates Pod Security admission (1.23)';
  });

  async function labelled(labels: Record<string, string>): Promise<string> {
    const ns = await ctx.namespaces.create('psa');
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}`, 'application/merge-patch+json', { metadata: { labels } });
    assert.equal(res.status, 200, res.text);
    return ns;
  }

  const hardened = (name: string) => {
    const p = pod(name);
    p.spec.securityContext = { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } };
    p.spec.containers[0].securityContext = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
    return p;
  };

  it('enforce=restricted refuses a plain pod with kube\'s 403 and stores nothing; a hardened pod is admitted', async (t) => {
    if (skip) return t.skip(skip);
    const ns = await labelled({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod('plain'));
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.reason, 'Forbidden');
    assert.equal(res.body.message, `pods "plain" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_VIOLATIONS}`);
    assert.equal(res.body.details.name, 'plain');
    assert.equal(res.body.details.kind, 'pods');
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/pods/plain`)).status, 404);
    const dry = await ctx.http.post(`/api/v1/namespaces/${ns}/pods?dryRun=All`, pod('dry'));
    assert.equal(dry.status, 403, 'dry-run is admitted the same way');
    const ok = await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, hardened('hard'));
    assert.equal(ok.status, 201, ok.text);
  });

  it('enforce=baseline refuses privileged and host namespaces, names the version label', async (t) => {
    if (skip) return t.skip(skip);
    const ns = await labelled({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.29' });
    const p = pod('priv');
    p.spec.hostNetwork = true;
    p.spec.containers[0].securityContext = { privileged: true };
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, p);
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.message, 'pods "priv" is forbidden: violates PodSecurity "baseline:v1.29": host namespaces (hostNetwork=true), privileged (container "main" must not set securityContext.privileged=true)');
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod('plain'))).status, 201, 'a plain pod meets baseline');
  });

  it('an unlabelled namespace admits a privileged pod', async (t) => {
    if (skip) return t.skip(skip);
    const ns = await ctx.namespaces.create('psa');
    const p = pod('priv');
    p.spec.containers[0].securityContext = { privileged: true };
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, p)).status, 201);
  });

  it('warn=restricted admits with a warning; a Deployment is warned, never refused, even under enforce', async (t) => {
    if (skip) return t.skip(skip);
    const ns = await labelled({ 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/enforce': 'restricted' });
    const dep = await ctx.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('web'));
    assert.equal(dep.status, 201, dep.text);
    const warning = String(dep.headers.warning ?? '');
    assert.match(warning, /^299 - "would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false/);
    const warnOnly = await labelled({ 'pod-security.kubernetes.io/warn': 'baseline' });
    const p = pod('priv');
    p.spec.containers[0].securityContext = { privileged: true };
    const res = await ctx.http.post(`/api/v1/namespaces/${warnOnly}/pods`, p);
    assert.equal(res.status, 201, res.text);
    assert.match(String(res.headers.warning ?? ''), /would violate PodSecurity \\"baseline:latest\\": privileged/);
  });

  it('updates that cannot change the verdict are admitted after a namespace is tightened; an image change is checked', async (t) => {
    if (skip) return t.skip(skip);
    const ns = await ctx.namespaces.create('psa');
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod('old'))).body;
    await ctx.http.patch(`/api/v1/namespaces/${ns}`, 'application/merge-patch+json', { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
    const relabel = await ctx.http.patch(`/api/v1/namespaces/${ns}/pods/old`, 'application/merge-patch+json', { metadata: { labels: { tier: 'x' } } });
    assert.equal(relabel.status, 200, relabel.text);
    // Strategic merge (containers by name), as kubectl set image sends: a merge patch would replace the list and
    // drop `command`, which kube refuses first (422, pod updates may change only images and a few fields).
    const image = await ctx.http.patch(`/api/v1/namespaces/${ns}/pods/old`, 'application/strategic-merge-patch+json', { spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } });
    assert.equal(image.status, 403, image.text);
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/pods/old`)).body.spec.containers[0].image, created.spec.containers[0].image);
  });

  it('a namespace with a level that does not exist is refused, 422', async (t) => {
    if (skip) return t.skip(skip);
    const name = uniqueName('psa');
    const res = await ctx.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'none' } } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    assert.match(res.body.message, /metadata\.labels\[pod-security\.kubernetes\.io\/enforce\]: Invalid value: "none"/);
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${name}`)).status, 404);
  });
});
