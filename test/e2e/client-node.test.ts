// @kubernetes/client-node through the gateway with a tenant's kubeconfig, as a
// tenant's own program would use it: list and watch through makeInformer
// (namespaced and all-namespaces), create, merge and JSON patch, delete, and a
// 404 in tenant terms. Another tenant's objects with the same label and
// names must never reach the informer; no object may show a tenant prefix.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiException, CoreV1Api, KubeConfig, PatchStrategy, makeInformer, setHeaderOptions,
  type Informer, type ObjectCache, type V1ConfigMap,
} from '@kubernetes/client-node';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../helpers/gateway-harness.ts';
import { eventually } from '../helpers/poll.ts';

const NS = 'cn';
const LABEL = 'e2e=client-node';
const PREFIXES = /acme01|globx1/;

function client(h: GatewayHarness, tenant: string): { kc: KubeConfig; core: CoreV1Api } {
  const kc = new KubeConfig();
  kc.loadFromFile(h.kubeconfigPath(tenant, 'admin'));
  return { kc, core: kc.makeApiClient(CoreV1Api) };
}

const cm = (name: string, data: Record<string, string>): V1ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { e2e: 'client-node' } }, data });

describe('@kubernetes/client-node through the gateway', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  let acme: ReturnType<typeof client>;
  let globex: ReturnType<typeof client>;
  const informers: Informer<V1ConfigMap>[] = [];
  const events: string[] = [];
  let nsInformer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;
  let allInformer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    acme = client(h, 'acme');
    globex = client(h, 'globex');
    for (const c of [acme, globex]) await c.core.createNamespace({ body: { metadata: { name: NS } } });
  });
  after(async () => {
    for (const i of informers) await i.stop();
    await h.stop();
  });

  it('informers list and watch, namespaced and across namespaces', async () => {
    nsInformer = makeInformer(acme.kc, `/api/v1/namespaces/${NS}/configmaps`, () => acme.core.listNamespacedConfigMap({ namespace: NS, labelSelector: LABEL }), LABEL);
    allInformer = makeInformer(acme.kc, '/api/v1/configmaps', () => acme.core.listConfigMapForAllNamespaces({ labelSelector: LABEL }), LABEL);
    for (const [name, inf] of [['ns', nsInformer], ['all', allInformer]] as const) {
      informers.push(inf);
      for (const verb of ['add', 'update', 'delete'] as const) inf.on(verb, (o) => { events.push(`${name} ${verb} ${o.metadata?.namespace}/${o.metadata?.name} ${JSON.stringify(o.data ?? {})}`); });
      inf.on('error', (err) => { events.push(`${name} error ${String(err)}`); });
    }
    await acme.core.createNamespacedConfigMap({ namespace: NS, body: cm('before', { k: '0' }) });
    await nsInformer.start();
    await allInformer.start();
    await eventually(async () => events.includes('ns add cn/before {"k":"0"}') && events.includes('all add cn/before {"k":"0"}'), 'the initial list', { timeoutMs: 10_000, intervalMs: 50 });
  });

  it('create: the watch delivers it, in tenant terms', async () => {
    const created = await acme.core.createNamespacedConfigMap({ namespace: NS, body: cm('a', { k: 'v1' }) });
    assert.equal(created.metadata?.namespace, NS);
    assert.ok(created.metadata?.resourceVersion);
    // globex writes the same name and label in its own "cn": acme must never see it.
    await globex.core.createNamespacedConfigMap({ namespace: NS, body: cm('a', { k: 'globex' }) });
    await eventually(async () => events.includes('ns add cn/a {"k":"v1"}') && events.includes('all add cn/a {"k":"v1"}'), 'add events', { timeoutMs: 10_000, intervalMs: 50 });
  });

  it('merge patch and JSON patch: update events with the new data', async () => {
    const merged = await acme.core.patchNamespacedConfigMap({ name: 'a', namespace: NS, body: { data: { k: 'v2' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    assert.deepEqual(merged.data, { k: 'v2' });
    await eventually(async () => events.includes('ns update cn/a {"k":"v2"}'), 'the merge patch event', { timeoutMs: 10_000, intervalMs: 50 });
    const jsonPatched = await acme.core.patchNamespacedConfigMap({ name: 'a', namespace: NS, body: [{ op: 'add', path: '/data/j', value: 'x' }, { op: 'replace', path: '/data/k', value: 'v3' }] }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
    assert.deepEqual(jsonPatched.data, { k: 'v3', j: 'x' });
    await eventually(async () => events.includes('all update cn/a {"k":"v3","j":"x"}'), 'the JSON patch event', { timeoutMs: 10_000, intervalMs: 50 });
    assert.deepEqual(nsInformer.get('a', NS)?.data, { k: 'v3', j: 'x' });
  });

  it('list: only the tenant\'s objects, unprefixed', async () => {
    const list = await acme.core.listConfigMapForAllNamespaces({ labelSelector: LABEL });
    assert.deepEqual(list.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`).sort(), ['cn/a', 'cn/before']);
    assert.ok(list.metadata?.resourceVersion);
    assert.equal(list.items.find((i) => i.metadata?.name === 'a')?.data?.k, 'v3');
  });

  it('delete: the delete event empties the cache', async () => {
    await acme.core.deleteNamespacedConfigMap({ name: 'a', namespace: NS });
    await eventually(async () => events.some((e) => e.startsWith('ns delete cn/a')) && events.some((e) => e.startsWith('all delete cn/a')), 'delete events', { timeoutMs: 10_000, intervalMs: 50 });
    assert.equal(nsInformer.get('a', NS), undefined);
    assert.deepEqual(allInformer.list().map((o) => o.metadata?.name), ['before']);
  });

  it('a missing object is an ApiException 404 in tenant terms', async () => {
    await assert.rejects(acme.core.readNamespacedConfigMap({ name: 'a', namespace: NS }), (err: unknown) => {
      assert.ok(err instanceof ApiException, String(err));
      assert.equal(err.code, 404);
      const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
      assert.equal(body.message, 'configmaps "a" not found');
      assert.equal(body.details.name, 'a');
      return true;
    });
  });

  it('nothing seen carried a prefix, and nothing came from the other tenant', () => {
    assert.ok(events.length >= 8, events.join('\n'));
    for (const e of events) {
      assert.doesNotMatch(e, PREFIXES, e);
      assert.doesNotMatch(e, /globex| error /, e);
    }
  });
});
