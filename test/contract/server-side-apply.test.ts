// Server-side apply: create by apply, merging between managers, managedFields,
// 409 on conflicting ownership, and force.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { PATCH } from '../helpers/kube-http.ts';

describe('server-side apply', { timeout: 60_000 }, () => {
  const ctx = useContractServer();
  const cm = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data });

  async function apply(ns: string, manager: string, body: unknown, force = false) {
    const q = `fieldManager=${manager}${force ? '&force=true' : ''}`;
    return await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/ssa?${q}`, PATCH.apply, JSON.stringify(body));
  }

  it('apply creates a missing object (201) and records an Apply managedFields entry', async () => {
    const ns = await ctx.namespaces.create('ssa');
    const res = await apply(ns, 'mgr-a', cm({ key: 'a' }));
    assert.equal(res.status, 201, res.text);
    const entry = res.body.metadata.managedFields.find((m: any) => m.manager === 'mgr-a');
    assert.equal(entry.operation, 'Apply');
    assert.equal(entry.apiVersion, 'v1');
    assert.equal(entry.fieldsType, 'FieldsV1');
    assert.deepEqual(entry.fieldsV1['f:data'], { 'f:key': {} });
    const again = await apply(ns, 'mgr-a', cm({ key: 'a' }));
    assert.equal(again.status, 200);
  });

  it('resourceVersion "1" pins an apply to an absent object: ignored on create (201, dry run too), 409 once the object exists', async () => {
    // The gateway's create pin (apply-by-dry-run.ts), as kube-apiserver 1.20 answers it.
    const ns = await ctx.namespaces.create('ssa');
    const pinned = (data: Record<string, string>) => ({ ...cm(data), metadata: { name: 'ssa', resourceVersion: '1' } });
    const dry = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/ssa?fieldManager=mgr-a&dryRun=All`, PATCH.apply, JSON.stringify(pinned({ key: 'a' })));
    assert.equal(dry.status, 201, dry.text);
    const created = await apply(ns, 'mgr-a', pinned({ key: 'a' }));
    assert.equal(created.status, 201, created.text);
    assert.notEqual(created.body.metadata.resourceVersion, '1');
    const again = await apply(ns, 'mgr-b', pinned({ other: 'b' }));
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.reason, 'Conflict');
    assert.match(again.body.message, /the object has been modified; please apply your changes to the latest version and try again/);
    assert.deepEqual((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/ssa`)).body.data, { key: 'a' });
  });

  it('two managers merge; a field dropped by its only owner is removed', async () => {
    const ns = await ctx.namespaces.create('ssa');
    await apply(ns, 'mgr-a', cm({ a: '1', b: '2' }));
    const both = await apply(ns, 'mgr-b', cm({ c: '3' }));
    assert.deepEqual(both.body.data, { a: '1', b: '2', c: '3' });
    const dropped = await apply(ns, 'mgr-a', cm({ a: '1' }));
    assert.deepEqual(dropped.body.data, { a: '1', c: '3' });
  });

  it('a conflicting value from another manager is 409 with FieldManagerConflict causes; force takes ownership', async () => {
    const ns = await ctx.namespaces.create('ssa');
    await apply(ns, 'mgr-a', cm({ key: 'a' }));
    const conflict = await apply(ns, 'mgr-b', cm({ key: 'b' }));
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.reason, 'Conflict');
    assert.match(conflict.body.message, /^Apply failed with 1 conflict: conflict with "mgr-a"( using v1)?: \.data\.key$/);
    assert.deepEqual(conflict.body.details.causes.map((c: any) => [c.reason, c.field]), [['FieldManagerConflict', '.data.key']]);
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/ssa`)).body.data.key, 'a');
    const forced = await apply(ns, 'mgr-b', cm({ key: 'b' }), true);
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.body.data.key, 'b');
    const owners = forced.body.metadata.managedFields.filter((m: any) => m.fieldsV1?.['f:data']?.['f:key']).map((m: any) => m.manager);
    assert.deepEqual(owners, ['mgr-b']);
  });

  it('an update by another manager is recorded as an Update entry', async () => {
    const ns = await ctx.namespaces.create('ssa');
    await apply(ns, 'mgr-a', cm({ key: 'a' }));
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/ssa?fieldManager=editor`, PATCH.merge, { data: { other: 'x' } });
    const entry = res.body.metadata.managedFields.find((m: any) => m.manager === 'editor');
    assert.equal(entry.operation, 'Update');
    assert.deepEqual(entry.fieldsV1['f:data'], { 'f:other': {} });
  });

  it('apply without fieldManager is rejected', async () => {
    const ns = await ctx.namespaces.create('ssa');
    const res = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/ssa`, PATCH.apply, JSON.stringify(cm({ k: 'v' })));
    assert.equal(res.status, 422);
    assert.equal(res.body.reason, 'Invalid');
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/ssa`)).status, 404);
  });
});
