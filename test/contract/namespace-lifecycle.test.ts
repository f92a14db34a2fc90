// Namespace deletion (Terminating, then gone with its contents) and finalizers
// holding an object in place with deletionTimestamp set.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap } from '../fixtures/objects.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';

const HOLD = 'contract.warren.dev/hold';

describe('namespace lifecycle and finalizers', { timeout: 120_000 }, () => {
  const ctx = useContractServer();

  it('a new namespace is Active with the kubernetes finalizer', async () => {
    const ns = await ctx.namespaces.create();
    const res = await ctx.http.get(`/api/v1/namespaces/${ns}`);
    assert.equal(res.body.status.phase, 'Active');
    assert.deepEqual(res.body.spec.finalizers, ['kubernetes']);
  });

  it('deleting a namespace marks it Terminating, removes its contents, then removes it', async () => {
    const ns = await ctx.namespaces.create();
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('inside'));
    const del = await ctx.http.delete(`/api/v1/namespaces/${ns}`);
    assert.equal(del.status, 200);
    assert.equal(del.body.kind, 'Namespace');
    assert.equal(del.body.status.phase, 'Terminating');
    assert.ok(del.body.metadata.deletionTimestamp);
    await eventually(async () => (await ctx.http.get(`/api/v1/namespaces/${ns}`)).status === 404, 'namespace gone', { timeoutMs: 60_000 });
    const list = await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps`);
    assert.equal(list.status, 200);
    assert.equal(list.body.items.filter((i: any) => i.metadata.name === 'inside').length, 0);
  });

  it('a finalizer in a Terminating namespace keeps it; new content is Forbidden; releasing lets it go', async () => {
    const ns = await ctx.namespaces.create();
    const cm = { ...configMap('held'), metadata: { name: 'held', finalizers: [HOLD] } };
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, cm)).status, 201);
    await ctx.http.delete(`/api/v1/namespaces/${ns}`);
    // The namespace controller marks the held object for deletion; the namespace waits for it.
    await eventually(async () => (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/held`)).body?.metadata?.deletionTimestamp, 'held object marked');
    const late = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('late'));
    assert.equal(late.status, 403);
    assert.equal(late.body.reason, 'Forbidden');
    assert.equal(late.body.message, `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`);
    assert.equal((await ctx.http.get(`/api/v1/namespaces/${ns}`)).body.status.phase, 'Terminating');
    await ctx.http.patch(`/api/v1/namespaces/${ns}/configmaps/held`, PATCH.merge, { metadata: { finalizers: null } });
    await eventually(async () => (await ctx.http.get(`/api/v1/namespaces/${ns}`)).status === 404, 'namespace gone', { timeoutMs: 60_000 });
  });

  it('a finalizer holds a deleted object with deletionTimestamp until it is removed', async () => {
    const ns = await ctx.namespaces.create();
    const path = `/api/v1/namespaces/${ns}/configmaps/fin`;
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { ...configMap('fin'), metadata: { name: 'fin', finalizers: [HOLD] } });
    const del = await ctx.http.delete(path);
    assert.equal(del.status, 200);
    assert.ok(del.body.metadata.deletionTimestamp, 'deletionTimestamp in the answer');
    assert.equal(del.body.metadata.deletionGracePeriodSeconds, 0);
    const held = await ctx.http.get(path);
    assert.equal(held.status, 200);
    assert.deepEqual(held.body.metadata.finalizers, [HOLD]);
    // Deleting again changes nothing while the finalizer is there.
    assert.equal((await ctx.http.delete(path)).status, 200);
    const released = await ctx.http.patch(path, PATCH.json, [{ op: 'remove', path: '/metadata/finalizers' }]);
    assert.equal(released.status, 200);
    assert.equal((await ctx.http.get(path)).status, 404);
  });

  it('a namespace cannot be created twice', async () => {
    const ns = await ctx.namespaces.create();
    const again = await ctx.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, `namespaces "${ns}" already exists`);
  });
});
