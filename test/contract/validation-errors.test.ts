// Failed requests: the status codes, reasons and messages kube-apiserver gives,
// and nothing half-written afterwards.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap, deployment } from '../fixtures/objects.ts';

describe('validation and request errors', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  it('malformed JSON is 400 BadRequest', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, '{"apiVersion": "v1", "kind": ');
    assert.equal(res.status, 400);
    assert.equal(res.body.kind, 'Status');
    assert.equal(res.body.reason, 'BadRequest');
  });

  it('malformed YAML is 400 BadRequest', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n', { contentType: 'application/yaml' });
    assert.equal(res.status, 400);
    assert.equal(res.body.reason, 'BadRequest');
  });

  it('valid YAML is accepted', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fromyaml\ndata:\n  a: "1"\n', { contentType: 'application/yaml' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.data, { a: '1' });
  });

  const mismatches = [
    { name: 'kind not matching the URL', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'm' } } },
    { name: 'apiVersion not matching the URL', body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'm' } } },
  ];
  for (const c of mismatches) {
    it(`${c.name} is 400 and stores nothing`, async () => {
      const ns = await ctx.namespaces.create('v');
      const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, c.body);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.reason, 'BadRequest');
      assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/m`)).status, 404);
      assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/secrets/m`)).status, 404);
    });
  }

  it('a name in the body different from the URL is 400', async () => {
    const ns = await ctx.namespaces.create('v');
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('a'))).body;
    const res = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/a`, { ...created, metadata: { ...created.metadata, name: 'b' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.reason, 'BadRequest');
    assert.equal(res.body.message, 'the name of the object (b) does not match the name on the URL (a)');
  });

  it('a namespace in the body different from the URL is 400', async () => {
    const ns = await ctx.namespaces.create('v');
    const body = configMap('n');
    body.metadata.namespace = 'elsewhere';
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, body);
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
  });

  it('an unknown resource is 404 NotFound', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.get(`/api/v1/namespaces/${ns}/nosuchthings`);
    assert.equal(res.status, 404);
    assert.equal(res.body.reason, 'NotFound');
    assert.equal(res.body.message, 'the server could not find the requested resource');
  });

  it('a body of another kind or apiVersion is 400 in the words of kube\'s decoder', async () => {
    const ns = await ctx.namespaces.create('v');
    const cases = [
      { path: `/api/v1/namespaces/${ns}/configmaps`, body: { apiVersion: 'v1', kind: 'Secret' }, message: 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion' },
      { path: `/apis/apps/v1/namespaces/${ns}/deployments`, body: { apiVersion: 'apps/v1', kind: 'StatefulSet' }, message: 'StatefulSet in version "v1" cannot be handled as a Deployment: converting (v1.StatefulSet) to (apps.Deployment): unknown conversion' },
      { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' }, message: 'Role in version "v1" cannot be handled as a ClusterRole: converting (v1.Role) to (rbac.ClusterRole): unknown conversion' },
      { path: `/api/v1/namespaces/${ns}/configmaps`, body: { apiVersion: 'v1', kind: 'Foo' }, message: /^Foo in version "v1" cannot be handled as a ConfigMap: no kind "Foo" is registered for version "v1" in scheme / },
      { path: `/api/v1/namespaces/${ns}/configmaps`, body: { apiVersion: 'nosuch.example.com/v1', kind: 'ConfigMap' }, message: /^ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "nosuch.example.com\/v1" in scheme / },
    ];
    for (const c of cases) {
      const res = await ctx.http.post(c.path, { ...c.body, metadata: { name: 'k' } });
      assert.equal(res.status, 400, `${c.path} ${res.text}`);
      assert.equal(res.body.reason, 'BadRequest');
      if (typeof c.message === 'string') assert.equal(res.body.message, c.message);
      else assert.match(res.body.message, c.message);
    }
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/k`)).status, 404, 'nothing stored');
  });

  it('the scale of a missing object is 404 naming the scale resource on GET, the main resource on PUT', async () => {
    const ns = await ctx.namespaces.create('v');
    const get = await ctx.http.get(`/apis/apps/v1/namespaces/${ns}/deployments/nope/scale`);
    assert.equal(get.status, 404);
    assert.equal(get.body.message, 'deployments/scale.apps "nope" not found');
    assert.deepEqual(get.body.details, { name: 'nope', group: 'apps', kind: 'deployments/scale' });
    const rc = await ctx.http.get(`/api/v1/namespaces/${ns}/replicationcontrollers/nope/scale`);
    assert.equal(rc.body.message, 'replicationcontrollers/scale.autoscaling "nope" not found');
    assert.deepEqual(rc.body.details, { name: 'nope', group: 'autoscaling', kind: 'replicationcontrollers/scale' });
    const put = await ctx.http.put(`/apis/apps/v1/namespaces/${ns}/deployments/nope/scale`, {
      apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'nope', namespace: ns }, spec: { replicas: 2 },
    });
    assert.equal(put.status, 404);
    assert.equal(put.body.message, 'deployments.apps "nope" not found');
    assert.deepEqual(put.body.details, { name: 'nope', group: 'apps', kind: 'deployments' });
  });

  it('a path in a group nobody serves is a 404; an unknown version or resource of a served group is a Status', async () => {
    for (const path of ['/apis/nosuch.example.com', '/apis/nosuch.example.com/v1', '/apis/nosuch.example.com/v1/things', '/apis/nosuch.example.com/v1/namespaces/default/things/x']) {
      const res = await ctx.http.get(path);
      assert.equal(res.status, 404, path);
      // Real kube and the embedded server: plain text "404 page not found". Through the gateway (the
      // contract suite also runs against a tenant's view) a NotFound Status: nothing else is said either way.
      if (res.body) assert.equal(res.body.reason, 'NotFound', path);
      else assert.equal(res.text, '404 page not found\n', path);
    }
    for (const path of ['/apis/apps/v9', '/apis/apps/v1/nosuch', '/api/v1/nosuch']) {
      const res = await ctx.http.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.kind, 'Status', path);
      assert.equal(res.body.reason, 'NotFound', path);
      assert.equal(res.body.message, 'the server could not find the requested resource', path);
    }
  });

  it('a body over 3 MiB is 413 RequestEntityTooLarge', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('huge', { blob: 'x'.repeat(3 * 1024 * 1024 + 16) }));
    assert.equal(res.status, 413);
    assert.equal(res.body.reason, 'RequestEntityTooLarge');
    assert.equal(res.body.message, 'Request entity too large: limit is 3145728');
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/huge`)).status, 404);
  });

  it('annotations over 256 KiB in total are 422 Invalid (kube\'s total annotation size), nothing stored', async () => {
    const ns = await ctx.namespaces.create('v');
    const cm = configMap('many-notes', { a: 'b' });
    const annotations: Record<string, string> = {};
    for (let i = 0; i < 5; i++) annotations[`note-${i}`] = 'x'.repeat(60 * 1024);
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { ...cm, metadata: { ...cm.metadata, annotations } });
    assert.equal(res.status, 422, res.text.slice(0, 300));
    assert.equal(res.body.reason, 'Invalid');
    // Real 1.20's wording (checked 2026-11-26); newer kube says "may not be more than 262144 bytes".
    const detail = /^Too long: must have at most 262144 bytes$/;
    assert.match(res.body.message, /^ConfigMap "many-notes" is invalid: metadata\.annotations: /);
    assert.match(res.body.message.replace(/^ConfigMap "many-notes" is invalid: metadata\.annotations: /, ''), detail);
    assert.equal(res.body.details.causes.length, 1);
    assert.deepEqual({ ...res.body.details.causes[0], message: '' }, { reason: 'FieldValueTooLong', message: '', field: 'metadata.annotations' });
    assert.match(res.body.details.causes[0].message, detail);
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/many-notes`)).status, 404);
  });

  it('an invalid name is 422 Invalid with kube\'s message and causes', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('Bad_Name'));
    assert.equal(res.status, 422);
    assert.equal(res.body.reason, 'Invalid');
    assert.match(res.body.message, /^ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '\.', and must start and end with an alphanumeric character/);
    assert.equal(res.body.details.name, 'Bad_Name');
    assert.equal(res.body.details.kind, 'ConfigMap');
    assert.equal(res.body.details.causes[0].reason, 'FieldValueInvalid');
    assert.equal(res.body.details.causes[0].field, 'metadata.name');
  });

  it('a Deployment whose selector does not match its template is 422, several causes in brackets', async () => {
    const ns = await ctx.namespaces.create('v');
    const dep = deployment('mismatch');
    dep.spec.selector = { matchLabels: { app: 'other' } };
    dep.spec.replicas = -1;
    const res = await ctx.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, dep);
    assert.equal(res.status, 422);
    assert.equal(res.body.details.group, 'apps');
    assert.equal(res.body.details.kind, 'Deployment');
    assert.match(res.body.message, /^Deployment\.apps "mismatch" is invalid: \[/);
    const fields = res.body.details.causes.map((c: any) => c.field);
    assert.ok(fields.includes('spec.replicas'), fields.join(','));
    assert.ok(fields.includes('spec.template.metadata.labels'), fields.join(','));
    assert.equal((await ctx.http.get(`/apis/apps/v1/namespaces/${ns}/deployments/mismatch`)).status, 404);
  });

  it('a failed update leaves the stored object and its resourceVersion alone', async () => {
    const ns = await ctx.namespaces.create('v');
    const created = (await ctx.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('keep'))).body;
    const bad = structuredClone(created);
    bad.spec.replicas = -5;
    bad.spec.template.spec.containers[0].image = 'changed:1';
    // Unconditional, so a real deployment controller's status writes cannot turn this into a 409;
    // they also move resourceVersion, so the Deployment is checked by generation and spec.
    delete bad.metadata.resourceVersion;
    const res = await ctx.http.put(`/apis/apps/v1/namespaces/${ns}/deployments/keep`, bad);
    assert.equal(res.status, 422);
    const now = (await ctx.http.get(`/apis/apps/v1/namespaces/${ns}/deployments/keep`)).body;
    assert.equal(now.metadata.generation, created.metadata.generation);
    assert.equal(now.spec.replicas, created.spec.replicas);
    assert.equal(now.spec.template.spec.containers[0].image, 'nginx:1.25');
    // No controller touches a ConfigMap: there the whole object, resourceVersion included, is unchanged.
    const cm = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' }, data: { a: '1' } })).body;
    const badCm = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/keep`, { ...cm, data: { 'not a key!': '2' } });
    assert.equal(badCm.status, 422, badCm.text);
    const cmNow = (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/keep`)).body;
    assert.equal(cmNow.metadata.resourceVersion, cm.metadata.resourceVersion);
    assert.deepEqual(cmNow.data, { a: '1' });
  });

  it('an unsupported method on a resource is 405', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.request('PUT', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap('x') });
    assert.equal(res.status, 405);
    assert.equal(res.body.reason, 'MethodNotAllowed');
  });
});
