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

  it('a body over 3 MiB is 413 RequestEntityTooLarge', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('huge', { blob: 'x'.repeat(3 * 1024 * 1024 + 16) }));
    assert.equal(res.status, 413);
    assert.equal(res.body.reason, 'RequestEntityTooLarge');
    assert.equal(res.body.message, 'Request entity too large: limit is 3145728');
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/huge`)).status, 404);
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
    const res = await ctx.http.put(`/apis/apps/v1/namespaces/${ns}/deployments/keep`, bad);
    assert.equal(res.status, 422);
    const now = (await ctx.http.get(`/apis/apps/v1/namespaces/${ns}/deployments/keep`)).body;
    assert.equal(now.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.equal(now.spec.template.spec.containers[0].image, 'nginx:1.25');
  });

  it('an unsupported method on a resource is 405', async () => {
    const ns = await ctx.namespaces.create('v');
    const res = await ctx.http.request('PUT', `/api/v1/namespaces/${ns}/configmaps`, { body: configMap('x') });
    assert.equal(res.status, 405);
    assert.equal(res.body.reason, 'MethodNotAllowed');
  });
});
