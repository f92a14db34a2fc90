// Discovery, OpenAPI and health endpoints, as kubectl and client libraries read them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverMinor } from '../helpers/contract-features.ts';
import { useContractServer } from '../helpers/contract-suite.ts';

const AGGREGATED_ACCEPT = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',');

describe('discovery', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  it('/version carries every version.Info field as a string', async () => {
    const res = await ctx.http.get('/version');
    assert.equal(res.status, 200);
    for (const field of ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']) {
      assert.equal(typeof res.body[field], 'string', field);
    }
    assert.match(res.body.gitVersion, /^v\d+\.\d+\.\d+/);
  });

  it('/api lists v1', async () => {
    const res = await ctx.http.get('/api');
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'APIVersions');
    assert.deepEqual(res.body.versions, ['v1']);
    assert.ok(Array.isArray(res.body.serverAddressByClientCIDRs));
  });

  it('/apis lists groups with preferred versions', async () => {
    const res = await ctx.http.get('/apis');
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'APIGroupList');
    const apps = res.body.groups.find((g: any) => g.name === 'apps');
    assert.ok(apps, 'apps group');
    assert.deepEqual(apps.versions, [{ groupVersion: 'apps/v1', version: 'v1' }]);
    assert.deepEqual(apps.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
    for (const group of ['batch', 'rbac.authorization.k8s.io', 'apiextensions.k8s.io', 'networking.k8s.io']) {
      assert.ok(res.body.groups.some((g: any) => g.name === group), group);
    }
  });

  const coreCases = [
    { name: 'pods', kind: 'Pod', singularName: 'pod', namespaced: true, shortNames: ['po'], categories: ['all'] },
    { name: 'namespaces', kind: 'Namespace', singularName: 'namespace', namespaced: false, shortNames: ['ns'] },
    { name: 'configmaps', kind: 'ConfigMap', singularName: 'configmap', namespaced: true, shortNames: ['cm'] },
    { name: 'services', kind: 'Service', singularName: 'service', namespaced: true, shortNames: ['svc'], categories: ['all'] },
  ];
  for (const c of coreCases) {
    it(`/api/v1 describes ${c.name}`, async () => {
      const res = await ctx.http.get('/api/v1');
      assert.equal(res.status, 200);
      assert.equal(res.body.kind, 'APIResourceList');
      assert.equal(res.body.groupVersion, 'v1');
      const r = res.body.resources.find((x: any) => x.name === c.name);
      assert.ok(r, c.name);
      assert.equal(r.kind, c.kind);
      // Built-in resources carry their singularName in discovery from kube 1.27; before, it was empty.
      assert.equal(r.singularName, (await serverMinor(ctx.http)) >= 27 ? c.singularName : '');
      assert.equal(r.namespaced, c.namespaced);
      assert.deepEqual(r.shortNames, c.shortNames);
      if (c.categories) assert.deepEqual(r.categories, c.categories);
      for (const verb of ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']) assert.ok(r.verbs.includes(verb), `${c.name} ${verb}`);
    });
  }

  it('/api/v1 lists subresources as resource/sub entries', async () => {
    const res = await ctx.http.get('/api/v1');
    const names = res.body.resources.map((r: any) => r.name);
    for (const sub of ['pods/status', 'pods/log', 'serviceaccounts/token', 'namespaces/status']) assert.ok(names.includes(sub), sub);
    const podStatus = res.body.resources.find((r: any) => r.name === 'pods/status');
    assert.deepEqual([...podStatus.verbs].sort(), ['get', 'patch', 'update']);
  });

  it('/apis/apps/v1 describes deployments and deployments/scale', async () => {
    const res = await ctx.http.get('/apis/apps/v1');
    assert.equal(res.status, 200);
    assert.equal(res.body.groupVersion, 'apps/v1');
    const d = res.body.resources.find((r: any) => r.name === 'deployments');
    assert.equal(d.kind, 'Deployment');
    assert.equal(d.namespaced, true);
    assert.deepEqual(d.shortNames, ['deploy']);
    assert.deepEqual(d.categories, ['all']);
    assert.deepEqual([...d.verbs].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const scale = res.body.resources.find((r: any) => r.name === 'deployments/scale');
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.group, 'autoscaling');
    assert.equal(scale.version, 'v1');
  });

  it('aggregated discovery (or the plain APIGroupList fallback) at /apis', async () => {
    const res = await ctx.http.get('/apis', { Accept: AGGREGATED_ACCEPT });
    assert.equal(res.status, 200);
    const contentType = String(res.headers['content-type']);
    // Aggregated discovery is served from kube 1.27 (beta, on by default); older servers fall back to APIGroupList.
    if ((await serverMinor(ctx.http)) < 27) {
      assert.equal(res.body.kind, 'APIGroupList');
      return;
    }
    assert.equal(res.body.kind, 'APIGroupDiscoveryList');
    assert.match(res.body.apiVersion, /^apidiscovery\.k8s\.io\/v2(beta1)?$/);
    assert.ok(contentType.includes(`v=${res.body.apiVersion.split('/')[1]}`));
    const apps = res.body.items.find((g: any) => g.metadata.name === 'apps');
    const v1 = apps.versions.find((v: any) => v.version === 'v1');
    const d = v1.resources.find((r: any) => r.resource === 'deployments');
    assert.deepEqual(d.responseKind, { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.equal(d.scope, 'Namespaced');
    assert.equal(d.singularResource, 'deployment');
    assert.deepEqual(d.shortNames, ['deploy']);
    const scale = d.subresources.find((s: any) => s.subresource === 'scale');
    assert.deepEqual(scale.responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });

  it('aggregated discovery at /api holds the core group', async () => {
    const res = await ctx.http.get('/api', { Accept: AGGREGATED_ACCEPT });
    assert.equal(res.status, 200);
    if ((await serverMinor(ctx.http)) < 27) {
      assert.equal(res.body.kind, 'APIVersions');
      return;
    }
    assert.match(String(res.headers['content-type']), /as=APIGroupDiscoveryList/);
    const core = res.body.items[0];
    const pods = core.versions[0].resources.find((r: any) => r.resource === 'pods');
    assert.deepEqual(pods.responseKind, { group: '', version: 'v1', kind: 'Pod' });
    assert.equal(pods.scope, 'Namespaced');
    const ns = core.versions[0].resources.find((r: any) => r.resource === 'namespaces');
    assert.equal(ns.scope, 'Cluster');
  });

  it('/openapi/v2 holds the Deployment schema with its descriptions', async () => {
    const res = await ctx.http.get('/openapi/v2');
    assert.equal(res.status, 200);
    // kube 1.20 labels the JSON document text/plain.
    const doc = res.body ?? JSON.parse(res.text);
    assert.equal(doc.swagger, '2.0');
    const spec = doc.definitions['io.k8s.api.apps.v1.DeploymentSpec'];
    assert.match(spec.properties.replicas.description, /Number of desired pods/);
    const dep = doc.definitions['io.k8s.api.apps.v1.Deployment'];
    assert.deepEqual(dep['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  });

  it('/openapi/v3 indexes group versions, each serving components.schemas', async (t) => {
    // OpenAPI v3 is served from kube 1.24 (beta, on by default); 1.20 answers 404.
    if ((await serverMinor(ctx.http)) < 24) return t.skip('the server predates /openapi/v3 (1.24)');
    const index = await ctx.http.get('/openapi/v3');
    assert.equal(index.status, 200);
    const entry = index.body.paths['apis/apps/v1'];
    assert.match(entry.serverRelativeURL, /^\/openapi\/v3\/apis\/apps\/v1\?hash=/);
    assert.ok(index.body.paths['api/v1'], 'api/v1');
    const doc = await ctx.http.get(entry.serverRelativeURL);
    assert.equal(doc.status, 200);
    assert.match(doc.body.openapi, /^3\./);
    assert.match(doc.body.components.schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties.replicas.description, /Number of desired pods/);
  });

  for (const path of ['/healthz', '/livez', '/readyz']) {
    it(`${path} answers ok`, async () => {
      const res = await ctx.http.get(path, { Accept: '*/*' });
      assert.equal(res.status, 200);
      assert.equal(res.text, 'ok');
    });
  }

  it('an unknown group version is 404', async () => {
    const res = await ctx.http.get('/apis/nosuch.example.com/v1');
    assert.equal(res.status, 404);
  });
});
