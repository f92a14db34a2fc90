// Create/read/update/delete of built-ins: server-set metadata, optimistic
// concurrency, generateName, namespace existence, dryRun and atomic failures.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap, deployment } from '../fixtures/objects.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { uniqueName } from '../helpers/test-namespace.ts';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('CRUD', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  it('create sets uid, creationTimestamp and resourceVersion; get returns the same object', async () => {
    const ns = await ctx.namespaces.create();
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('a'));
    assert.equal(res.status, 201);
    const m = res.body.metadata;
    assert.match(m.uid, UID);
    assert.match(m.creationTimestamp, RFC3339);
    assert.match(m.resourceVersion, /^\d+$/);
    assert.equal(m.namespace, ns);
    assert.equal(res.body.kind, 'ConfigMap');
    assert.equal(res.body.apiVersion, 'v1');
    const got = await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/a`);
    assert.equal(got.status, 200);
    assert.equal(got.body.metadata.uid, m.uid);
    assert.equal(got.body.metadata.resourceVersion, m.resourceVersion);
    assert.deepEqual(got.body.data, { key: 'value' });
  });

  it('create twice is 409 AlreadyExists', async () => {
    const ns = await ctx.namespaces.create();
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('dup'));
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('dup'));
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'AlreadyExists');
    assert.equal(res.body.message, 'configmaps "dup" already exists');
    assert.deepEqual(res.body.details, { name: 'dup', kind: 'configmaps' });
  });

  it('get of a missing object is 404 NotFound with kube\'s message', async () => {
    const ns = await ctx.namespaces.create();
    const res = await ctx.http.get(`/apis/apps/v1/namespaces/${ns}/deployments/nope`);
    assert.equal(res.status, 404);
    assert.equal(res.body.kind, 'Status');
    assert.equal(res.body.status, 'Failure');
    assert.equal(res.body.reason, 'NotFound');
    assert.equal(res.body.message, 'deployments.apps "nope" not found');
    assert.deepEqual(res.body.details, { name: 'nope', group: 'apps', kind: 'deployments' });
  });

  it('update bumps resourceVersion and keeps uid and creationTimestamp', async () => {
    const ns = await ctx.namespaces.create();
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('u'))).body;
    const res = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/u`, { ...created, data: { key: 'new' } });
    assert.equal(res.status, 200);
    assert.notEqual(res.body.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.equal(res.body.metadata.uid, created.metadata.uid);
    assert.equal(res.body.metadata.creationTimestamp, created.metadata.creationTimestamp);
  });

  it('a uid unlike the stored one: PUT 409 (a precondition), server-side apply 422 metadata.uid field is immutable; nothing changes', async () => {
    const ns = await ctx.namespaces.create();
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('uid'))).body;
    const other = '00000000-0000-0000-0000-000000000001';
    const put = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/uid`, { ...created, metadata: { ...created.metadata, uid: other }, data: { key: 'new' } });
    // A PUT's uid is a precondition (409); an apply's is validated as immutable (422).
    assert.equal(put.status, 409, JSON.stringify(put.body));
    assert.equal(put.body.reason, 'Conflict');
    assert.equal(put.body.message, `Operation cannot be fulfilled on configmaps "uid": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${ns}/uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${other}, UID in object meta: ${created.metadata.uid}`);
    const apply = await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/uid?fieldManager=m&force=true`, PATCH.apply,
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'uid', uid: other }, data: { key: 'applied' } }));
    assert.equal(apply.status, 422, JSON.stringify(apply.body));
    assert.equal(apply.body.reason, 'Invalid');
    assert.equal(apply.body.message, `ConfigMap "uid" is invalid: metadata.uid: Invalid value: "${other}": field is immutable`);
    const cause = { reason: 'FieldValueInvalid', message: `Invalid value: "${other}": field is immutable`, field: 'metadata.uid' };
    assert.deepEqual(apply.body.details.causes, [cause, cause], 'real 1.20 lists the cause twice');
    const now = (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/uid`)).body;
    assert.equal(now.metadata.uid, created.metadata.uid);
    assert.equal(now.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(now.data, created.data);
  });

  it('409 Conflict on a stale resourceVersion, and the object is left as it was', async () => {
    const ns = await ctx.namespaces.create();
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('c'))).body;
    const first = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/c`, { ...created, data: { key: 'one' } });
    assert.equal(first.status, 200);
    const stale = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/c`, { ...created, data: { key: 'two' } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.reason, 'Conflict');
    assert.equal(stale.body.message, 'Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again');
    assert.deepEqual(stale.body.details, { name: 'c', kind: 'configmaps' });
    const now = (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/c`)).body;
    assert.deepEqual(now.data, { key: 'one' });
    assert.equal(now.metadata.resourceVersion, first.body.metadata.resourceVersion);
  });

  it('generation starts at 1 and bumps on spec changes only', async () => {
    const ns = await ctx.namespaces.create();
    const base = `/apis/apps/v1/namespaces/${ns}/deployments/g`;
    const created = await ctx.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('g'));
    assert.equal(created.status, 201);
    assert.equal(created.body.metadata.generation, 1);
    const labelled = await ctx.http.patch(base, PATCH.merge, { metadata: { labels: { extra: 'yes' } } });
    assert.equal(labelled.body.metadata.generation, 1, 'metadata change');
    const status = await ctx.http.patch(`${base}/status`, PATCH.merge, { status: { observedGeneration: 1 } });
    assert.equal(status.status, 200);
    assert.equal(status.body.metadata.generation, 1, 'status change');
    const spec = await ctx.http.patch(base, PATCH.merge, { spec: { replicas: 4 } });
    assert.equal(spec.body.metadata.generation, 2, 'spec change');
  });

  it('generateName gives a name with a 5-character suffix', async () => {
    const ns = await ctx.namespaces.create();
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
    assert.equal(res.status, 201);
    assert.match(res.body.metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(res.body.metadata.generateName, 'gen-');
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/${res.body.metadata.name}`)).status, 200);
  });

  it('creating in a namespace that does not exist is 404 for the namespace', async () => {
    const missing = uniqueName('missing');
    const res = await ctx.http.post(`/api/v1/namespaces/${missing}/configmaps`, configMap('x'));
    assert.equal(res.status, 404);
    assert.equal(res.body.reason, 'NotFound');
    assert.equal(res.body.message, `namespaces "${missing}" not found`);
    assert.deepEqual(res.body.details, { name: missing, kind: 'namespaces' });
  });

  it('dryRun=All create validates and returns the object but stores nothing', async () => {
    const ns = await ctx.namespaces.create();
    const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps?dryRun=All`, configMap('dry'));
    assert.equal(res.status, 201);
    assert.equal(res.body.metadata.name, 'dry');
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/dry`)).status, 404);
    const invalid = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps?dryRun=All`, configMap('Not_Valid'));
    assert.equal(invalid.status, 422);
  });

  it('dryRun=All update and delete leave the stored object alone', async () => {
    const ns = await ctx.namespaces.create();
    const created = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('keep'))).body;
    const upd = await ctx.http.put(`/api/v1/namespaces/${ns}/configmaps/keep?dryRun=All`, { ...created, data: { key: 'dry' } });
    assert.equal(upd.status, 200);
    assert.deepEqual(upd.body.data, { key: 'dry' });
    const del = await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/keep?dryRun=All`);
    assert.equal(del.status, 200);
    const now = (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/keep`)).body;
    assert.deepEqual(now.data, { key: 'value' });
    assert.equal(now.metadata.resourceVersion, created.metadata.resourceVersion);
  });

  it('delete answers a Success Status naming the object (configmaps do not return it); a second delete is 404', async () => {
    const ns = await ctx.namespaces.create();
    const created = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('d'));
    const del = await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/d`);
    assert.equal(del.status, 200);
    // kube-apiserver's configmap registry does not set ReturnDeletedObject: the answer is a Status.
    assert.equal(del.body.kind, 'Status');
    assert.equal(del.body.status, 'Success');
    assert.deepEqual(del.body.details, { name: 'd', kind: 'configmaps', uid: created.body.metadata.uid });
    const again = await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/d`);
    assert.equal(again.status, 404);
    assert.equal(again.body.message, 'configmaps "d" not found');
  });

  it('delete with a uid precondition that does not match is 409 Conflict', async () => {
    const ns = await ctx.namespaces.create();
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('p'));
    const res = await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/p`, {
      apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: '00000000-0000-0000-0000-000000000000' },
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'Conflict');
    // kube checks delete preconditions before the storage does (rest.BeforeDelete), naming the Kind.
    assert.match(res.body.message, /^Operation cannot be fulfilled on ConfigMap "p": the UID in the precondition \(00000000-0000-0000-0000-000000000000\) does not match the UID in record \([0-9a-f-]+\)\. The object might have been deleted and then recreated$/);
    assert.deepEqual(res.body.details, { name: 'p', kind: 'ConfigMap' });
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/p`)).status, 200);
  });

  it('list returns kind ConfigMapList with a resourceVersion', async () => {
    const ns = await ctx.namespaces.create();
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('l1'));
    const res = await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps`);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'ConfigMapList');
    assert.equal(res.body.apiVersion, 'v1');
    assert.match(res.body.metadata.resourceVersion, /^\d+$/);
    assert.ok(res.body.items.some((i: any) => i.metadata.name === 'l1'));
  });
});
