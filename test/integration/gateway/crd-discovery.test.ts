// A tenant's CRD lives upstream under its prefixed group, yet the tenant sees
// foos.a.com as it wrote it: in discovery, in the CRD object, in the custom
// resources. The other tenant sees none of it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'foos.a.com' },
  spec: {
    group: 'a.com',
    scope: 'Namespaced',
    names: { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
    }],
  },
};
const AGG_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('gateway: CRD lifecycle and discovery in tenant terms', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  let acme: KubeHttp;
  let globex: KubeHttp;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    acme = h.http('acme', 'admin');
    globex = h.http('globex', 'admin');
    for (const c of [acme, globex]) assert.equal((await c.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('tenant A creates foos.a.com; it lands upstream under the prefixed group', async () => {
    const r = await acme.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.metadata.name, 'foos.a.com');
    assert.equal(r.body.spec.group, 'a.com');
    const up = await h.upstreamHttp.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.acme01-a.com');
    assert.equal(up.status, 200);
    assert.equal(up.body.spec.group, 'acme01-a.com');
  });

  it('the CRD becomes Established, seen through the gateway', async () => {
    await eventually(async () => {
      const r = await acme.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.a.com');
      return r.body?.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True');
    }, 'foos.a.com Established', { timeoutMs: 10_000 });
  });

  // Known bug (reported to the lead): `kubectl wait crd/foos.a.com` lists with this selector and gets NotFound.
  it('a fieldSelector on metadata.name finds the tenant\'s CRD', async () => {
    const r = await acme.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldSelector=metadata.name%3Dfoos.a.com');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.items.map((i: any) => i.metadata.name), ['foos.a.com']);
  });

  it('tenant A creates and lists a Foo', async () => {
    const created = await eventually(async () => {
      const r = await acme.post('/apis/a.com/v1/namespaces/web/foos', { apiVersion: 'a.com/v1', kind: 'Foo', metadata: { name: 'f1' }, spec: { size: 3 } });
      return r.status === 201 ? r : undefined;
    }, 'a Foo to be created', { timeoutMs: 10_000 });
    assert.equal(created.body.apiVersion, 'a.com/v1');
    const list = await acme.get('/apis/a.com/v1/namespaces/web/foos');
    assert.equal(list.status, 200);
    assert.equal(list.body.apiVersion, 'a.com/v1');
    assert.deepEqual(list.body.items.map((i: any) => [i.apiVersion, i.metadata.namespace, i.metadata.name]), [['a.com/v1', 'web', 'f1']]);
    const all = await acme.get('/apis/a.com/v1/foos');
    assert.deepEqual(all.body.items.map((i: any) => i.metadata.name), ['f1']);
    const up = await h.upstreamHttp.get('/apis/acme01-a.com/v1/namespaces/acme01-web/foos/f1');
    assert.equal(up.status, 200);
    assert.equal(up.body.apiVersion, 'acme01-a.com/v1');
  });

  it('A\'s discovery shows a.com unprefixed (legacy and aggregated)', async () => {
    const groups = await acme.get('/apis');
    assert.ok(groups.body.groups.some((g: any) => g.name === 'a.com'), groups.text);
    assert.doesNotMatch(groups.text, /acme01|globx1/);
    const resources = await acme.get('/apis/a.com/v1');
    assert.equal(resources.status, 200);
    assert.deepEqual(resources.body.resources.map((r: any) => r.name).sort(), ['foos']);
    const agg = await acme.get('/apis', { Accept: AGG_ACCEPT });
    assert.equal(agg.status, 200);
    assert.doesNotMatch(agg.text, /acme01|globx1/);
    if (agg.body.kind === 'APIGroupDiscoveryList') assert.ok(agg.body.items.some((g: any) => g.metadata.name === 'a.com'));
  });

  it('tenant B sees neither the group, nor the CRD, nor the Foo', async () => {
    const groups = await globex.get('/apis');
    assert.ok(!groups.body.groups.some((g: any) => /a\.com/.test(g.name)), groups.text);
    assert.doesNotMatch(groups.text, /acme01/);
    const agg = await globex.get('/apis', { Accept: AGG_ACCEPT });
    assert.doesNotMatch(agg.text, /a\.com|acme01/);
    const crds = await globex.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    assert.equal(crds.status, 200);
    assert.deepEqual(crds.body.items, []);
    assert.equal((await globex.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.a.com')).status, 404);
    const foos = await globex.get('/apis/a.com/v1/namespaces/web/foos');
    assert.equal(foos.status, 404, foos.text);
    assert.doesNotMatch(foos.text, /acme01/);
    assert.equal((await globex.get('/apis/a.com/v1')).status, 404);
  });

  it('tenant B can define its own foos.a.com without colliding with A\'s', async () => {
    const r = await globex.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD);
    assert.equal(r.status, 201, r.text);
    await eventually(async () => (await globex.post('/apis/a.com/v1/namespaces/web/foos', { apiVersion: 'a.com/v1', kind: 'Foo', metadata: { name: 'g1' } })).status === 201, 'B\'s Foo', { timeoutMs: 10_000 });
    const a = await acme.get('/apis/a.com/v1/foos');
    assert.deepEqual(a.body.items.map((i: any) => i.metadata.name), ['f1']);
    const b = await globex.get('/apis/a.com/v1/foos');
    assert.deepEqual(b.body.items.map((i: any) => i.metadata.name), ['g1']);
  });

  it('deleting the CRD removes the group from A\'s discovery', async () => {
    assert.equal((await acme.delete('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.a.com')).status, 200);
    await eventually(async () => !(await acme.get('/apis')).body.groups.some((g: any) => g.name === 'a.com'), 'a.com gone from A\'s /apis', { timeoutMs: 10_000 });
    assert.ok((await globex.get('/apis')).body.groups.some((g: any) => g.name === 'a.com'), 'B keeps its own a.com');
  });
});
