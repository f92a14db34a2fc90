// CustomResourceDefinitions: Established, served versions, schema validation
// (422 with causes), defaulting, pruning, preserve-unknown-fields, status and
// scale subresources, and printer columns in Table output.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { hasFieldValidation, serverMinor } from '../helpers/contract-features.ts';
import { useContractServer } from '../helpers/contract-suite.ts';
import { widgetCrd } from '../fixtures/objects.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { uniqueName } from '../helpers/test-namespace.ts';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('custom resources', { timeout: 120_000 }, () => {
  const ctx = useContractServer();
  const group = `${uniqueName('ct')}.warren.dev`;
  let ns = '';
  const widgets = () => `/apis/${group}/v1/namespaces/${ns}/widgets`;
  const widget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec });

  async function createCrd(body: any): Promise<void> {
    const res = await ctx.http.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body);
    assert.equal(res.status, 201, res.text);
    ctx.onCleanup(() => ctx.http.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${body.metadata.name}`));
    await eventually(async () => {
      const crd = (await ctx.http.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${body.metadata.name}`)).body;
      return crd.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True');
    }, `${body.metadata.name} Established`);
    // Established means served, but discovery may trail a moment.
    await eventually(async () => (await ctx.http.get(`/apis/${body.spec.group}/v1`)).status === 200, 'group served');
  }

  before(async () => {
    ns = await ctx.namespaces.create('crd');
    await createCrd(widgetCrd({ group, plural: 'widgets', kind: 'Widget', shortNames: ['wd'] }));
    await createCrd(widgetCrd({ group, plural: 'clusterwidgets', kind: 'ClusterWidget', scope: 'Cluster' }));
  });


  it('discovery lists the resource with its names and subresources', async () => {
    const res = await ctx.http.get(`/apis/${group}/v1`);
    const names = res.body.resources.map((r: any) => r.name).sort();
    assert.deepEqual(names, ['clusterwidgets', 'clusterwidgets/scale', 'clusterwidgets/status', 'widgets', 'widgets/scale', 'widgets/status']);
    const w = res.body.resources.find((r: any) => r.name === 'widgets');
    assert.equal(w.kind, 'Widget');
    assert.equal(w.namespaced, true);
    assert.deepEqual(w.shortNames, ['wd']);
    assert.equal(res.body.resources.find((r: any) => r.name === 'clusterwidgets').namespaced, false);
    const groups = (await ctx.http.get('/apis')).body.groups.find((g: any) => g.name === group);
    assert.deepEqual(groups.preferredVersion, { groupVersion: `${group}/v1`, version: 'v1' });
  });

  it('create applies defaults; the object reads back through both served versions', async () => {
    const res = await ctx.http.post(widgets(), widget('w1', { color: 'red' }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.spec.size, 3, 'default applied');
    assert.equal(res.body.metadata.generation, 1);
    const beta = await ctx.http.get(`/apis/${group}/v1beta1/namespaces/${ns}/widgets/w1`);
    assert.equal(beta.status, 200);
    assert.equal(beta.body.apiVersion, `${group}/v1beta1`);
    assert.equal(beta.body.metadata.uid, res.body.metadata.uid);
  });

  const invalid = [
    { name: 'wrong type', spec: { color: 'red', size: 'big' }, field: 'spec.size', reason: 'FieldValueTypeInvalid' },
    { name: 'below minimum', spec: { color: 'red', size: 0 }, field: 'spec.size', reason: 'FieldValueInvalid', message: 'should be greater than or equal to 1' },
    { name: 'missing required', spec: { size: 2 }, field: 'spec.color', reason: 'FieldValueRequired', message: 'Required value' },
    { name: 'not in enum', spec: { color: 'purple' }, field: 'spec.color', reason: 'FieldValueNotSupported', message: 'Unsupported value: "purple"' },
  ];
  for (const c of invalid) {
    it(`schema violation (${c.name}) is 422 Invalid with a cause for ${c.field}`, async () => {
      const name = uniqueName('bad');
      const res = await ctx.http.post(widgets(), widget(name, c.spec));
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.reason, 'Invalid');
      assert.equal(res.body.details.kind, 'Widget');
      assert.equal(res.body.details.group, group);
      assert.equal(res.body.details.name, name);
      assert.match(res.body.message, new RegExp(`^Widget\\.${group.replace(/\./g, '\\.')} "${name}" is invalid: `));
      const cause = res.body.details.causes.find((x: any) => x.field === c.field);
      assert.ok(cause, `cause for ${c.field} in ${JSON.stringify(res.body.details.causes)}`);
      // kube 1.20 reported a wrong JSON type as FieldValueInvalid; later versions say FieldValueTypeInvalid.
      const reason = c.reason === 'FieldValueTypeInvalid' && (await serverMinor(ctx.http)) <= 20 ? 'FieldValueInvalid' : c.reason;
      assert.equal(cause.reason, reason);
      if (c.message) assert.ok(cause.message.includes(c.message), cause.message);
      assert.equal((await ctx.http.get(`${widgets()}/${name}`)).status, 404, 'nothing stored');
    });
  }

  it('a null for a non-nullable field: a body drops it, an apply patch is refused with 422; a null with a default is defaulted', async () => {
    const created = await ctx.http.post(widgets(), widget('nulls', { color: 'red', replicas: null, size: null }));
    assert.equal(created.status, 201, created.text);
    assert.equal('replicas' in created.body.spec, false);
    assert.equal(created.body.spec.size, 3);
    const apply = (name: string, spec: Record<string, unknown>) =>
      ctx.http.patch(`${widgets()}/${name}?fieldManager=contract&force=true`, PATCH.apply, JSON.stringify(widget(name, spec)));
    const refused = await apply('nulls', { color: 'red', replicas: null });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.reason, 'Invalid');
    // spec.replicas is also the scale subresource's path: kube may add a second cause for it.
    assert.ok(refused.body.message.startsWith(`Widget.${group} "nulls" is invalid: `), refused.body.message);
    const cause = refused.body.details.causes.find((x: any) => x.field === 'spec.replicas');
    assert.equal(cause?.message, 'Invalid value: "null": spec.replicas in body must be of type integer: "null"');
    assert.equal(cause?.reason, (await serverMinor(ctx.http)) <= 20 ? 'FieldValueInvalid' : 'FieldValueTypeInvalid');
    const kept = (await ctx.http.get(`${widgets()}/nulls`)).body;
    assert.equal(kept.metadata.resourceVersion, created.body.metadata.resourceVersion, 'nothing written');
    const fresh = await apply('nulls-new', { color: 'blue', replicas: null });
    assert.equal(fresh.status, 422, fresh.text);
    assert.equal((await ctx.http.get(`${widgets()}/nulls-new`)).status, 404, 'nothing created');
    const defaulted = await apply('nulls', { color: 'red', size: null });
    assert.equal(defaulted.status, 200, defaulted.text);
    assert.equal(defaulted.body.spec.size, 3);
  });

  it('unknown fields are pruned (fieldValidation=Ignore), preserved under x-kubernetes-preserve-unknown-fields', async () => {
    const body = widget('pruned', { color: 'blue', bogus: 1, extra: { anything: { goes: true } } });
    (body as any).topLevelJunk = 'x';
    const res = await ctx.http.post(`${widgets()}?fieldValidation=Ignore`, body);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.spec.bogus, undefined);
    assert.equal(res.body.topLevelJunk, undefined);
    assert.deepEqual(res.body.spec.extra, { anything: { goes: true } });
  });

  it('fieldValidation=Strict rejects unknown fields with 400', async (t) => {
    if (!(await hasFieldValidation(ctx.http))) return t.skip('the server predates fieldValidation (1.25)');
    const res = await ctx.http.post(`${widgets()}?fieldValidation=Strict`, widget('strict', { color: 'blue', bogus: 1 }));
    assert.equal(res.status, 400);
    assert.equal(res.body.reason, 'BadRequest');
    assert.match(res.body.message, /unknown field "spec\.bogus"/);
  });

  it('status subresource: main writes ignore status, /status writes ignore spec', async () => {
    const created = (await ctx.http.post(widgets(), widget('st', { color: 'red', replicas: 1 }))).body;
    const main = await ctx.http.put(`${widgets()}/st`, { ...created, spec: { ...created.spec, replicas: 2 }, status: { phase: 'Main' } });
    assert.equal(main.status, 200, main.text);
    assert.equal(main.body.status, undefined);
    assert.equal(main.body.metadata.generation, 2);
    const st = await ctx.http.put(`${widgets()}/st/status`, { ...main.body, spec: { ...main.body.spec, replicas: 7 }, status: { phase: 'Ready', replicas: 2 } });
    assert.equal(st.status, 200, st.text);
    assert.equal(st.body.status.phase, 'Ready');
    assert.equal(st.body.spec.replicas, 2);
    assert.equal(st.body.metadata.generation, 2);
  });

  it('scale subresource maps spec.replicas', async () => {
    await ctx.http.post(widgets(), widget('sc', { color: 'red', replicas: 2 }));
    const scale = await ctx.http.get(`${widgets()}/sc/scale`);
    assert.equal(scale.status, 200, scale.text);
    assert.equal(scale.body.kind, 'Scale');
    assert.equal(scale.body.apiVersion, 'autoscaling/v1');
    assert.equal(scale.body.spec.replicas, 2);
    const put = await ctx.http.put(`${widgets()}/sc/scale`, { ...scale.body, spec: { replicas: 4 } });
    assert.equal(put.status, 200, put.text);
    assert.equal((await ctx.http.get(`${widgets()}/sc`)).body.spec.replicas, 4);
  });

  it('merge patch works and strategic merge patch is 415 for custom resources', async () => {
    await ctx.http.post(widgets(), widget('pt', { color: 'red' }));
    const merge = await ctx.http.patch(`${widgets()}/pt`, PATCH.merge, { spec: { color: 'blue' } });
    assert.equal(merge.status, 200, merge.text);
    assert.equal(merge.body.spec.color, 'blue');
    const smp = await ctx.http.patch(`${widgets()}/pt`, PATCH.strategic, { spec: { color: 'red' } });
    assert.equal(smp.status, 415);
    assert.equal(smp.body.reason, 'UnsupportedMediaType');
  });

  it('cluster-scoped custom resources live outside namespaces', async () => {
    const name = uniqueName('cw');
    const res = await ctx.http.post(`/apis/${group}/v1/clusterwidgets`, { apiVersion: `${group}/v1`, kind: 'ClusterWidget', metadata: { name }, spec: { color: 'red' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.metadata.namespace, undefined);
    assert.equal((await ctx.http.get(`/apis/${group}/v1/clusterwidgets/${name}`)).status, 200);
    await ctx.http.delete(`/apis/${group}/v1/clusterwidgets/${name}`);
  });

  it('Table output uses additionalPrinterColumns', async () => {
    await ctx.http.post(widgets(), widget('tbl', { color: 'blue', size: 7 }));
    const res = await ctx.http.get(`${widgets()}?fieldSelector=metadata.name%3Dtbl`, { Accept: TABLE });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.kind, 'Table');
    assert.equal(res.body.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(res.body.columnDefinitions.map((c: any) => c.name), ['Name', 'Size', 'Color', 'Age']);
    assert.deepEqual(res.body.columnDefinitions.map((c: any) => c.type), ['string', 'integer', 'string', 'date']);
    const row = res.body.rows[0];
    assert.deepEqual(row.cells.slice(0, 3), ['tbl', 7, 'blue']);
    assert.equal(row.object.kind, 'PartialObjectMetadata');
  });

  it('a write answers with metadata only when asked (create, apply, status update), as the engine asks (ADR 0041)', async () => {
    const asked = { headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json' } };
    const created = await ctx.http.post(widgets(), widget('meta-only', { color: 'red' }), asked);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'PartialObjectMetadata');
    assert.equal(created.body.apiVersion, 'meta.k8s.io/v1');
    assert.equal(created.body.metadata.name, 'meta-only');
    assert.equal(created.body.spec, undefined);
    const applied = await ctx.http.patch(`${widgets()}/meta-applied?fieldManager=ct&force=true`, PATCH.apply, widget('meta-applied', { color: 'blue' }), asked);
    assert.equal(applied.status, 201, applied.text);
    assert.equal(applied.body.kind, 'PartialObjectMetadata');
    const status = await ctx.http.put(`${widgets()}/meta-only/status`, { ...widget('meta-only', {}), metadata: { name: 'meta-only', resourceVersion: created.body.metadata.resourceVersion }, status: { phase: 'Ready' } }, asked);
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.kind, 'PartialObjectMetadata');
    assert.equal(status.body.status, undefined);
    assert.notEqual(status.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
    assert.equal((await ctx.http.get(`${widgets()}/meta-only`)).body.status.phase, 'Ready', 'the status was written');
    const conflict = await ctx.http.put(`${widgets()}/meta-only/status`, { ...widget('meta-only', {}), metadata: { name: 'meta-only', resourceVersion: created.body.metadata.resourceVersion }, status: { phase: 'Old' } }, asked);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.kind, 'Status', 'an error is a Status, not metadata');
  });

  it('an unsupported field label on a custom resource is 400', async () => {
    const res = await ctx.http.get(`${widgets()}?fieldSelector=spec.color%3Dred`);
    assert.equal(res.status, 400);
    assert.equal(res.body.reason, 'BadRequest');
  });
});
