// ResourceQuota admission: creates beyond a hard limit are refused with kube's
// "exceeded quota" message, and nothing is stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';

describe('ResourceQuota', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  /** kube's quota admission refuses everything until the quota controller has written status.hard. */
  const quotaComputed = async (ns: string, name: string): Promise<void> => {
    for (let i = 0; i < 100; i++) {
      const quota = await ctx.http.get(`/api/v1/namespaces/${ns}/resourcequotas/${name}`);
      if (quota.body.status?.hard) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`quota ${name} never got status.hard`);
  };

  it('object counts: the configmap beyond count/configmaps is 403 Forbidden "exceeded quota"', async () => {
    const ns = await ctx.namespaces.create('rq');
    // Some servers add a kube-root-ca.crt ConfigMap to every namespace: count what is there.
    const before = (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps`)).body.items.length as number;
    const quota = await ctx.http.post(`/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'small' }, spec: { hard: { 'count/configmaps': String(before + 1) } },
    });
    assert.equal(quota.status, 201, quota.text);
    await quotaComputed(ns, 'small');
    const ok = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } });
    assert.equal(ok.status, 201, ok.text);
    // kube's quota controller fills status asynchronously; admission may need a moment on a real server.
    let refused;
    for (let i = 0; i < 50; i++) {
      refused = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `two-${i}` } });
      if (refused.status === 403) break;
      await ctx.http.delete(`/api/v1/namespaces/${ns}/configmaps/two-${i}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(refused!.status, 403, refused!.text);
    assert.equal(refused!.body.reason, 'Forbidden');
    assert.match(refused!.body.message, new RegExp(`^configmaps "two-\\d+" is forbidden: exceeded quota: small, requested: count/configmaps=1, used: count/configmaps=${before + 1}, limited: count/configmaps=${before + 1}$`));
  });

  it('pod compute: a pod whose requests exceed requests.cpu is refused', async () => {
    const ns = await ctx.namespaces.create('rq');
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard: { 'requests.cpu': '1' } },
    })).status, 201);
    await quotaComputed(ns, 'compute');
    const pod = (name: string, cpu: string): object => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name },
      spec: { schedulerName: 'warren-none', containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu }, limits: { cpu } } }] },
    });
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod('a', '600m'))).status, 201);
    let refused;
    for (let i = 0; i < 50; i++) {
      refused = await ctx.http.post(`/api/v1/namespaces/${ns}/pods`, pod(`b-${i}`, '600m'));
      if (refused.status === 403) break;
      await ctx.http.delete(`/api/v1/namespaces/${ns}/pods/b-${i}?gracePeriodSeconds=0`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(refused!.status, 403, refused!.text);
    assert.match(refused!.body.message, /exceeded quota: compute, requested: requests\.cpu=600m, used: requests\.cpu=600m, limited: requests\.cpu=1$/);
  });
});
