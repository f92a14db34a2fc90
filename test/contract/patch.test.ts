// PATCH in its three classic flavours: JSON patch, merge patch, and strategic
// merge (lists merged by their patchMergeKey).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap, deployment } from '../fixtures/objects.ts';
import { PATCH } from '../helpers/kube-http.ts';

describe('patch', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  async function withDeployment(): Promise<{ path: string; created: any }> {
    const ns = await ctx.namespaces.create('p');
    const dep = deployment('web');
    dep.spec.template.spec.volumes = [{ name: 'cache', emptyDir: {} }];
    dep.spec.template.spec.containers[0].volumeMounts = [{ name: 'cache', mountPath: '/cache' }];
    const res = await ctx.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, dep);
    assert.equal(res.status, 201, res.text);
    return { path: `/apis/apps/v1/namespaces/${ns}/deployments/web`, created: res.body };
  }

  it('json patch: add, replace, remove, with a passing test op', async () => {
    const ns = await ctx.namespaces.create('p');
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('j', { a: '1', b: '2' }));
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/j`, PATCH.json, [
      { op: 'test', path: '/data/a', value: '1' },
      { op: 'replace', path: '/data/a', value: 'one' },
      { op: 'remove', path: '/data/b' },
      { op: 'add', path: '/data/c', value: '3' },
    ]);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, { a: 'one', c: '3' });
  });

  it('json patch with a failing test op is 422 and changes nothing', async () => {
    const ns = await ctx.namespaces.create('p');
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('j', { a: '1' }))).body;
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/j`, PATCH.json, [
      { op: 'replace', path: '/data/a', value: 'changed' },
      { op: 'test', path: '/data/a', value: 'nope' },
    ]);
    assert.equal(res.status, 422);
    assert.equal(res.body.kind, 'Status');
    const now = (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/j`)).body;
    assert.deepEqual(now.data, { a: '1' });
    assert.equal(now.metadata.resourceVersion, created.metadata.resourceVersion);
  });

  it('merge patch: null deletes a key, lists are replaced whole', async () => {
    const { path } = await withDeployment();
    const res = await ctx.http.patch(path, PATCH.merge, {
      metadata: { labels: { app: null, team: 'a' } },
      spec: { template: { spec: { containers: [{ name: 'only', image: 'busybox:1.36' }] } } },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.metadata.labels, { team: 'a' });
    const containers = res.body.spec.template.spec.containers;
    assert.deepEqual(containers.map((c: any) => c.name), ['only']);
  });

  it('strategic merge: containers by name, env by name, ports by containerPort, volumes by name', async () => {
    const { path } = await withDeployment();
    const res = await ctx.http.patch(path, PATCH.strategic, {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1.26', env: [{ name: 'A', value: 'changed' }, { name: 'B', value: '2' }], ports: [{ containerPort: 443 }] },
              { name: 'sidecar', image: 'busybox:1.36' },
            ],
            volumes: [{ name: 'extra', emptyDir: {} }],
          },
        },
      },
    });
    assert.equal(res.status, 200, res.text);
    const spec = res.body.spec.template.spec;
    const web = spec.containers.find((c: any) => c.name === 'web');
    assert.deepEqual(spec.containers.map((c: any) => c.name).sort(), ['sidecar', 'web']);
    assert.equal(web.image, 'nginx:1.26');
    assert.deepEqual(web.env.map((e: any) => [e.name, e.value]).sort(), [['A', 'changed'], ['B', '2']]);
    assert.deepEqual(web.ports.map((p: any) => p.containerPort).sort(), [443, 80]);
    assert.deepEqual(web.volumeMounts, [{ name: 'cache', mountPath: '/cache' }]);
    assert.deepEqual(spec.volumes.map((v: any) => v.name).sort(), ['cache', 'extra']);
  });

  it('strategic merge: $patch: delete removes one list element by key', async () => {
    const { path } = await withDeployment();
    await ctx.http.patch(path, PATCH.strategic, { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox:1.36' }] } } } });
    const res = await ctx.http.patch(path, PATCH.strategic, { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.spec.template.spec.containers.map((c: any) => c.name), ['web']);
  });

  it('an unknown patch content type is 415 UnsupportedMediaType', async () => {
    const ns = await ctx.namespaces.create('p');
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('t'));
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/t`, 'text/plain', 'data');
    assert.equal(res.status, 415);
    assert.equal(res.body.reason, 'UnsupportedMediaType');
  });

  it('patching a missing object is 404', async () => {
    const ns = await ctx.namespaces.create('p');
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/missing`, PATCH.merge, { data: { a: 'b' } });
    assert.equal(res.status, 404);
    assert.equal(res.body.message, 'configmaps "missing" not found');
  });

  it('a patch that changes the name is 400 with kube\'s message', async () => {
    const ns = await ctx.namespaces.create('p');
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('orig'));
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/orig`, PATCH.merge, { metadata: { name: 'renamed' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'the name of the object (renamed) does not match the name on the URL (orig)');
  });
});
