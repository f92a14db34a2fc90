// ResourceQuota admission: creates beyond a hard limit are refused with kube's
// "exceeded quota" message, and nothing is stored. The limits are the quota's
// status.hard, which its controller copies from spec.hard (checked on real 1.20):
// until then (a new quota's first moments) the quota refuses nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { eventually } from '../helpers/poll.ts';

describe('ResourceQuota', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  /** kube's quota admission enforces a quota once the quota controller has written status.hard. */
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

  it('a quota enforces its status.hard, not its spec: "status unknown" for a key without used, nothing while its status is empty', async () => {
    const ns = await ctx.namespaces.create('rq');
    // The namespace's own ConfigMap first: a late one would make the quota controller recount (the embedded one does).
    await eventually(async () => (await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status === 200, 'kube-root-ca.crt');
    const path = `/api/v1/namespaces/${ns}/resourcequotas/window`;
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ns}/resourcequotas`, {
      apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'window' }, spec: { hard: { 'count/configmaps': '0' } },
    })).status, 201);
    await quotaComputed(ns, 'window');
    const configMap = (name: string): Promise<{ status: number; text: string; body: any }> =>
      ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const full = await configMap('first');
    assert.equal(full.status, 403, full.text);
    assert.match(full.body.message, /^configmaps "first" is forbidden: exceeded quota: window, requested: count\/configmaps=1, used: count\/configmaps=\d+, limited: count\/configmaps=0$/);
    // Status written by hand: kube's controller follows spec.hard only, so neither server's controller undoes it here.
    const writeStatus = async (status: object): Promise<void> => {
      const current = (await ctx.http.get(path)).body;
      const res = await ctx.http.put(`${path}/status`, { ...current, status });
      assert.equal(res.status, 200, res.text);
    };
    await writeStatus({ hard: { 'count/configmaps': '100' }, used: {} });
    const unknown = await configMap('second');
    assert.equal(unknown.status, 403, unknown.text);
    assert.equal(unknown.body.message, 'configmaps "second" is forbidden: status unknown for quota: window, resources: count/configmaps');
    assert.deepEqual(unknown.body.details, { name: 'second', kind: 'configmaps' });
    // An empty status, as a new quota has until its controller has run: the quota refuses nothing.
    await writeStatus({});
    assert.equal((await ctx.http.get(path)).body.status?.hard, undefined);
    const admitted = await configMap('third');
    assert.equal(admitted.status, 201, admitted.text);
  });
});
