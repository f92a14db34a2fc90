// Label selectors (every operator) and field selectors, including kube's 400 for
// a field label the resource does not support.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap, pod, secret } from '../fixtures/objects.ts';

describe('selectors', { timeout: 60_000 }, () => {
  const ctx = useContractServer();
  let ns = '';
  let other = '';

  before(async () => {
    ns = await ctx.namespaces.create('sel');
    other = await ctx.namespaces.create('sel2');
    const labelled: Array<[string, Record<string, string>]> = [
      ['a', { tier: 'web', env: 'prod', rank: '1' }],
      ['b', { tier: 'web', env: 'dev', rank: '5' }],
      ['c', { tier: 'db', env: 'prod', rank: '10' }],
      ['d', { tier: 'cache' }],
      ['e', { other: 'x' }],
    ];
    for (const [name, labels] of labelled) {
      const res = await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap(name, { k: 'v' }, labels));
      assert.equal(res.status, 201);
    }
  });

  async function names(path: string): Promise<string[]> {
    const res = await ctx.http.get(path);
    assert.equal(res.status, 200, res.text);
    return res.body.items.map((i: any) => i.metadata.name).filter((n: string) => n !== 'kube-root-ca.crt').sort();
  }

  const labelCases = [
    { selector: 'tier=web', want: ['a', 'b'] },
    { selector: 'tier==web', want: ['a', 'b'] },
    { selector: 'tier!=web', want: ['c', 'd', 'e'] },
    { selector: 'tier in (web,db)', want: ['a', 'b', 'c'] },
    { selector: 'tier notin (web,db)', want: ['d', 'e'] },
    { selector: 'env', want: ['a', 'b', 'c'] },
    { selector: '!env', want: ['d', 'e'] },
    { selector: 'tier=web,env=prod', want: ['a'] },
    { selector: 'tier,!other', want: ['a', 'b', 'c', 'd'] },
    { selector: 'rank>2', want: ['b', 'c'] },
    { selector: 'rank<2', want: ['a'] },
    { selector: 'tier in (nothing)', want: [] },
  ];
  for (const c of labelCases) {
    it(`labelSelector ${c.selector}`, async () => {
      assert.deepEqual(await names(`/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent(c.selector)}`), c.want);
    });
  }

  it('an unparsable label selector is 400 BadRequest', async () => {
    const res = await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent('tier in (web')}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.reason, 'BadRequest');
  });

  it('fieldSelector metadata.name = and !=', async () => {
    assert.deepEqual(await names(`/api/v1/namespaces/${ns}/configmaps?fieldSelector=metadata.name%3Db`), ['b']);
    assert.deepEqual(await names(`/api/v1/namespaces/${ns}/configmaps?fieldSelector=metadata.name!%3Db`), ['a', 'c', 'd', 'e']);
    assert.deepEqual(await names(`/api/v1/namespaces/${ns}/configmaps?fieldSelector=metadata.name%3D%3Db`), ['b']);
  });

  it('fieldSelector metadata.namespace across all namespaces, combined with a label selector', async () => {
    await ctx.http.post(`/api/v1/namespaces/${other}/configmaps`, configMap('a', {}, { tier: 'web' }));
    const res = await ctx.http.get(`/api/v1/configmaps?fieldSelector=metadata.namespace%3D${other}&labelSelector=tier%3Dweb`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), [`${other}/a`]);
  });

  it('pod fieldSelectors status.phase and spec.nodeName', async () => {
    const pns = await ctx.namespaces.create('pods');
    await ctx.http.post(`/api/v1/namespaces/${pns}/pods`, pod('bound', { nodeName: 'contract-node-1' }));
    await ctx.http.post(`/api/v1/namespaces/${pns}/pods`, pod('unbound'));
    assert.deepEqual(await names(`/api/v1/namespaces/${pns}/pods?fieldSelector=spec.nodeName%3Dcontract-node-1`), ['bound']);
    assert.deepEqual(await names(`/api/v1/namespaces/${pns}/pods?fieldSelector=spec.nodeName%3D`), ['unbound']);
    assert.deepEqual(await names(`/api/v1/namespaces/${pns}/pods?fieldSelector=status.phase%3DPending`), ['bound', 'unbound']);
    assert.deepEqual(await names(`/api/v1/namespaces/${pns}/pods?fieldSelector=status.phase%3DRunning,spec.nodeName%3Dcontract-node-1`), []);
  });

  it('event fieldSelectors on involvedObject', async () => {
    const ens = await ctx.namespaces.create('ev');
    const event = (name: string, kind: string, objName: string) => ({
      apiVersion: 'v1', kind: 'Event', metadata: { name },
      involvedObject: { kind, name: objName, namespace: ens, apiVersion: 'v1' },
      reason: 'Testing', message: 'contract', type: 'Normal', source: { component: 'contract' },
      firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:00Z', count: 1,
    });
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ens}/events`, event('e1', 'Pod', 'p1'))).status, 201);
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ens}/events`, event('e2', 'ConfigMap', 'p1'))).status, 201);
    assert.equal((await ctx.http.post(`/api/v1/namespaces/${ens}/events`, event('e3', 'Pod', 'p2'))).status, 201);
    assert.deepEqual(await names(`/api/v1/namespaces/${ens}/events?fieldSelector=involvedObject.kind%3DPod`), ['e1', 'e3']);
    assert.deepEqual(await names(`/api/v1/namespaces/${ens}/events?fieldSelector=involvedObject.kind%3DPod,involvedObject.name%3Dp1`), ['e1']);
    assert.deepEqual(await names(`/api/v1/namespaces/${ens}/events?fieldSelector=involvedObject.namespace%3D${ens},reason%3DTesting`), ['e1', 'e2', 'e3']);
  });

  it('secret fieldSelector type', async () => {
    const sns = await ctx.namespaces.create('sec');
    await ctx.http.post(`/api/v1/namespaces/${sns}/secrets`, secret('opaque'));
    await ctx.http.post(`/api/v1/namespaces/${sns}/secrets`, secret('custom', 'example.com/custom'));
    assert.deepEqual(await names(`/api/v1/namespaces/${sns}/secrets?fieldSelector=type%3Dexample.com%2Fcustom`), ['custom']);
    assert.deepEqual(await names(`/api/v1/namespaces/${sns}/secrets?fieldSelector=type%3DOpaque`), ['opaque']);
  });

  // Kinds with their own field label conversion (pods, secrets, events, ...) say "field label not
  // supported"; the rest fall back to apimachinery's DefaultMetaV1FieldSelectorConversion message.
  const unsupported = [
    { path: () => `/api/v1/namespaces/${ns}/pods?fieldSelector=spec.containers%3Dx`, message: 'field label not supported: spec.containers' },
    { path: () => `/api/v1/namespaces/${ns}/secrets?fieldSelector=foo%3Dbar`, message: 'field label not supported: foo' },
    { path: () => `/api/v1/namespaces/${ns}/configmaps?fieldSelector=foo%3Dbar`, message: '"foo" is not a known field selector: only "metadata.name", "metadata.namespace"' },
  ];
  for (const c of unsupported) {
    it(`an unsupported field label is 400: ${c.message}`, async () => {
      const res = await ctx.http.get(c.path());
      assert.equal(res.status, 400);
      assert.equal(res.body.reason, 'BadRequest');
      assert.equal(res.body.message, c.message);
    });
  }
});
