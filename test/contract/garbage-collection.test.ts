// ownerReference garbage collection: Background deletes dependents, Orphan keeps
// them and strips the ownerReference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap } from '../fixtures/objects.ts';
import { eventually } from '../helpers/poll.ts';

describe('garbage collection', { timeout: 120_000 }, () => {
  const ctx = useContractServer();

  async function ownerAndDependent(ns: string): Promise<{ owner: any; dependentPath: string }> {
    const owner = (await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('owner'))).body;
    const dependent = configMap('dependent');
    dependent.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }];
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, dependent)).status, 201);
    return { owner, dependentPath: `/api/v1/namespaces/${ns}/configmaps/dependent` };
  }

  const cases = [
    { name: 'Background', policy: 'Background' },
    { name: 'default policy (background for configmaps)', policy: undefined },
  ];
  for (const c of cases) {
    it(`${c.name}: dependents are deleted`, async () => {
      const ns = await ctx.namespaces.create();
      const { dependentPath } = await ownerAndDependent(ns);
      const body = c.policy ? { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: c.policy } : undefined;
      assert.equal((await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/owner`, body)).status, 200);
      await eventually(async () => (await ctx.http.get(dependentPath)).status === 404, 'dependent deleted', { timeoutMs: 60_000 });
    });
  }

  it('Orphan: the owner goes, dependents stay without the ownerReference', async () => {
    const ns = await ctx.namespaces.create();
    const { dependentPath } = await ownerAndDependent(ns);
    const del = await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/owner`, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Orphan' });
    assert.equal(del.status, 200);
    await eventually(async () => (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/owner`)).status === 404, 'owner gone', { timeoutMs: 60_000 });
    const dep = await eventually(async () => {
      const res = await ctx.http.get(dependentPath);
      return res.status === 200 && !res.body.metadata.ownerReferences ? res.body : undefined;
    }, 'ownerReferences removed', { timeoutMs: 60_000 });
    assert.equal(dep.metadata.name, 'dependent');
  });

  it('a dependent whose owner never existed is collected', async () => {
    const ns = await ctx.namespaces.create();
    const dependent = configMap('stray');
    dependent.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '11111111-2222-3333-4444-555555555555' }];
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, dependent)).status, 201);
    await eventually(async () => (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/stray`)).status === 404, 'stray collected', { timeoutMs: 60_000 });
  });
});
