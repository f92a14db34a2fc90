// status and scale subresources, pods/log and serviceaccounts/token.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverMinor } from '../helpers/contract-features.ts';
import { useContractServer } from '../helpers/contract-suite.ts';
import { deployment, pod } from '../fixtures/objects.ts';

describe('subresources', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  async function withDeployment(replicas = 2): Promise<{ ns: string; path: string; created: any }> {
    const ns = await ctx.namespaces.create('sub');
    const res = await ctx.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('web', { replicas }));
    assert.equal(res.status, 201, res.text);
    return { ns, path: `/apis/apps/v1/namespaces/${ns}/deployments/web`, created: res.body };
  }

  // A real cluster's deployment controller writes status right after create: writes here are
  // unconditional (no resourceVersion), which deployments allow, so they cannot race it.
  const unconditional = (obj: any) => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } });

  it('a status write changes status and not spec', async () => {
    const { path, created } = await withDeployment();
    const body = { ...unconditional(created), spec: { ...created.spec, replicas: 9 }, status: { replicas: 2, observedGeneration: 1 } };
    const res = await ctx.http.put(`${path}/status`, body);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.spec.replicas, 2);
    assert.equal(res.body.status.replicas, 2);
    assert.equal(res.body.metadata.generation, 1);
  });

  it('a main-resource write changes spec and not status', async () => {
    const { path } = await withDeployment();
    const current = (await ctx.http.get(path)).body;
    const res = await ctx.http.put(path, { ...unconditional(current), spec: { ...current.spec, replicas: 3 }, status: { replicas: 42 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.spec.replicas, 3);
    assert.notEqual(res.body.status?.replicas, 42);
  });

  it('GET deployments/scale returns an autoscaling/v1 Scale', async () => {
    const { ns, path, created } = await withDeployment(2);
    const res = await ctx.http.get(`${path}/scale`);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'Scale');
    assert.equal(res.body.apiVersion, 'autoscaling/v1');
    assert.equal(res.body.metadata.name, 'web');
    assert.equal(res.body.metadata.namespace, ns);
    assert.equal(res.body.metadata.uid, created.metadata.uid);
    assert.equal(res.body.spec.replicas, 2);
    assert.equal(res.body.status.selector, 'app=web');
  });

  it('PUT deployments/scale sets spec.replicas and bumps generation', async () => {
    const { path } = await withDeployment(2);
    const scale = (await ctx.http.get(`${path}/scale`)).body;
    const res = await ctx.http.put(`${path}/scale`, { ...unconditional(scale), spec: { replicas: 5 } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.kind, 'Scale');
    assert.equal(res.body.spec.replicas, 5);
    const dep = (await ctx.http.get(path)).body;
    assert.equal(dep.spec.replicas, 5);
    assert.equal(dep.metadata.generation, 2);
  });

  it('PUT scale with a stale resourceVersion is 409', async () => {
    const { path } = await withDeployment(2);
    const scale = (await ctx.http.get(`${path}/scale`)).body;
    await ctx.http.put(`${path}/scale`, { ...scale, spec: { replicas: 3 } });
    const res = await ctx.http.put(`${path}/scale`, { ...scale, spec: { replicas: 4 } });
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'Conflict');
  });

  it('pods/log of a pod not yet on a node is an empty 200; container choice is checked first', async () => {
    const ns = await ctx.namespaces.create('log');
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod('one'))).status, 201);
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod('two', { containers: ['a', 'b'] }))).status, 201);
    const log = await ctx.http.get(`/api/v1/namespaces/${ns}/pods/one/log`, { Accept: '*/*' });
    // kube 1.20 answers an empty log with 204 No Content.
    assert.equal(log.status, (await serverMinor(ctx.http)) <= 20 ? 204 : 200);
    assert.equal(log.text, '');
    const pick = await ctx.http.get(`/api/v1/namespaces/${ns}/pods/two/log`);
    assert.equal(pick.status, 400);
    assert.equal(pick.body.message, 'a container name must be specified for pod two, choose one of: [a b]');
    const wrong = await ctx.http.get(`/api/v1/namespaces/${ns}/pods/two/log?container=c`);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.message, 'container c is not valid for pod two');
    const missing = await ctx.http.get(`/api/v1/namespaces/${ns}/pods/ghost/log`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'pods "ghost" not found');
  });

  it('serviceaccounts/token issues a JWT for the service account', async () => {
    const ns = await ctx.namespaces.create('tok');
    const sa = await ctx.http.post(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
    assert.equal(sa.status, 201);
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.kind, 'TokenRequest');
    assert.equal(res.body.apiVersion, 'authentication.k8s.io/v1');
    assert.match(res.body.status.expirationTimestamp, /^\d{4}-\d{2}-\d{2}T/);
    const parts = res.body.status.token.split('.');
    assert.equal(parts.length, 3);
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    assert.equal(claims.sub, `system:serviceaccount:${ns}:robot`);
    assert.ok(claims.exp - claims.iat >= 3600 - 5, 'lifetime');
    assert.ok(Array.isArray(claims.aud) && claims.aud.length > 0, 'audiences default to the server\'s');
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    assert.ok(['RS256', 'ES256'].includes(header.alg), header.alg);
  });

  it('serviceaccounts/token for a missing service account is 404', async () => {
    const ns = await ctx.namespaces.create('tok');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/serviceaccounts/nobody/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    assert.equal(res.status, 404);
    assert.equal(res.body.message, 'serviceaccounts "nobody" not found');
  });
});
