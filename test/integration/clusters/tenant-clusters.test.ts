// Adversarial: what tenants see of Karmada member Clusters through the gateway.
// Tenant A may use c1 and c2, tenant B only c3 (status.clusters, as onboarding
// resolves it). A must see exactly c1 and c2 on every read path (get, list,
// table, selectors, paging, watch, kubectl), never c3, never a secretRef, and
// may write none of them.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startGatewayHarness, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { WatchReader } from '../../helpers/watch-reader.ts';
import { PATCH, type KubeHttp } from '../../helpers/kube-http.ts';
import { eventually } from '../../helpers/poll.ts';
import { ensureCrds, readCrdFiles } from '../../../src/kube/ensure-crds.ts';
import { CRDS_DIR } from '../../../src/warren.ts';

const run = promisify(execFile);
const PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

const clusterObject = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster',
  metadata: { name, labels, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"spec":{"secretRef":{"name":"cluster-' + name + '"}}}' } },
  spec: { syncMode: 'Push', apiEndpoint: `https://${name}.example:6443`, provider: 'warren', region: 'region-a', secretRef: { namespace: 'warren-system', name: `cluster-${name}` } },
});

const names = (items: Array<{ metadata: { name: string } }>): string[] => items.map((i) => i.metadata.name).sort();

describe('tenant view of member Clusters', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  let b: KubeHttp;

  before(async () => {
    h = await startGatewayHarness({
      tenants: [
        { name: 'alpha', id: 'alpha1', users: [{ name: 'admin', admin: true }] },
        { name: 'bravo', id: 'bravo1', users: [{ name: 'admin', admin: true }] },
      ],
    });
    await ensureCrds(h.upstream, readCrdFiles(CRDS_DIR).filter((crd) => crd.metadata.name === 'clusters.cluster.karmada.io'));
    for (const [name, labels] of [['c1', { tier: 'gold' }], ['c2', {}], ['c3', { tier: 'gold' }]] as const) {
      const r = await h.upstream.request('POST', PATH, clusterObject(name, labels));
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    for (const [tenant, clusters] of [['alpha', ['c1', 'c2']], ['bravo', ['c3']]] as const) {
      const r = await h.upstream.request('PATCH', `/apis/tenancy.warren.dev/v1alpha1/tenants/${tenant}/status`, { status: { clusters } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    await eventually(async () => h.gateway.tenants.byId('alpha1')?.clusters?.length === 2 && h.gateway.tenants.byId('bravo1')?.clusters?.length === 1,
      'the gateway to know the tenants\' clusters', { timeoutMs: 10_000, intervalMs: 50 });
    a = h.http('alpha', 'admin');
    b = h.http('bravo', 'admin');
  });

  after(async () => {
    await h?.stop();
  });

  it('list shows exactly the allowed clusters, without secretRef or endpoint', async () => {
    const r = await a.get(PATH);
    assert.equal(r.status, 200);
    assert.deepEqual(names(r.body.items), ['c1', 'c2']);
    for (const item of r.body.items) {
      assert.equal(item.spec.secretRef, undefined);
      assert.equal(item.metadata.annotations, undefined, 'the last-applied annotation repeats the secretRef');
      assert.equal(item.metadata.managedFields, undefined);
      assert.equal(item.spec.apiEndpoint, undefined, 'where the member apiserver is stays the platform\'s (ADR 0043)');
      assert.equal(item.spec.region, 'region-a');
    }
    assert.doesNotMatch(r.text, /"c3"|cluster-c|c3\.example/);
    assert.deepEqual(names((await b.get(PATH)).body.items), ['c3']);
  });

  it('get of another tenant\'s cluster is 404 as if it did not exist', async () => {
    const r = await a.get(`${PATH}/c3`);
    assert.equal(r.status, 404);
    assert.equal(r.body.reason, 'NotFound');
    assert.equal(r.body.message, 'clusters.cluster.karmada.io "c3" not found');
    assert.deepEqual((await a.get(`${PATH}/nope`)).body.message, 'clusters.cluster.karmada.io "nope" not found');
    assert.equal((await a.get(`${PATH}/c3/status`)).status, 404);
    const own = await a.get(`${PATH}/c1`);
    assert.equal(own.status, 200);
    assert.equal(own.body.spec.secretRef, undefined);
    assert.equal(own.body.spec.provider, 'warren');
  });

  it('selectors and paging never reveal others', async () => {
    assert.deepEqual(names((await a.get(`${PATH}?labelSelector=tier%3Dgold`)).body.items), ['c1']);
    assert.deepEqual((await a.get(`${PATH}?fieldSelector=metadata.name%3Dc3`)).body.items, []);
    const page = await a.get(`${PATH}?limit=1`);
    assert.equal(page.status, 200);
    assert.equal(page.body.metadata.remainingItemCount, undefined, 'a count would include the hidden clusters');
    const seen = new Set<string>(names(page.body.items));
    let token = page.body.metadata.continue as string | undefined;
    while (token) {
      const next = await a.get(`${PATH}?limit=1&continue=${encodeURIComponent(token)}`);
      for (const n of names(next.body.items)) seen.add(n);
      token = next.body.metadata.continue;
    }
    assert.deepEqual([...seen].sort(), ['c1', 'c2']);
  });

  it('table output holds only allowed rows', async () => {
    const r = await a.get(PATH, { Accept: TABLE });
    assert.equal(r.body.kind, 'Table');
    assert.deepEqual(r.body.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Version', 'Mode', 'Ready', 'Age']);
    assert.deepEqual(r.body.rows.map((row: { cells: string[] }) => row.cells[0]).sort(), ['c1', 'c2']);
    const none = await a.get(`${PATH}?includeObject=None`, { Accept: TABLE });
    assert.deepEqual(none.body.rows.map((row: { cells: string[] }) => row.cells[0]).sort(), ['c1', 'c2']);
    assert.ok(none.body.rows.every((row: Record<string, unknown>) => row.object === undefined), 'includeObject=None is honoured');
    const other = await a.get(`${PATH}/c3`, { Accept: TABLE });
    assert.equal(other.status, 404);
  });

  it('writes are refused with 403', async () => {
    const attempts = [
      await a.post(PATH, clusterObject('mine')),
      await a.put(`${PATH}/c1`, { ...clusterObject('c1'), spec: { syncMode: 'Pull' } }),
      await a.patch(`${PATH}/c1`, PATCH.merge, { spec: { syncMode: 'Pull' } }),
      await a.patch(`${PATH}/c3`, PATCH.merge, { metadata: { labels: { owned: 'yes' } } }),
      await a.put(`${PATH}/c1/status`, clusterObject('c1')),
      await a.delete(`${PATH}/c1`),
      await a.delete(PATH),
    ];
    for (const r of attempts) {
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.equal(r.body.reason, 'Forbidden');
    }
    const c1 = await h.upstream.request<{ spec: { syncMode: string } }>('GET', `${PATH}/c1`);
    assert.equal(c1.body.spec.syncMode, 'Push');
  });

  it('a watch delivers only allowed clusters, on every event', async () => {
    const watch = await WatchReader.open(a, `${PATH}?watch=true`);
    assert.equal(watch.status, 200);
    const initial = await watch.until((e) => e.type === 'ADDED' && e.object.metadata.name === 'c2');
    await h.upstream.request('PATCH', `${PATH}/c3`, { metadata: { labels: { touched: 'c3' } } }, { 'Content-Type': 'application/merge-patch+json' });
    await h.upstream.request('PATCH', `${PATH}/c1`, { metadata: { labels: { touched: 'c1' } } }, { 'Content-Type': 'application/merge-patch+json' });
    const later = await watch.until((e) => e.type === 'MODIFIED' && e.object.metadata.labels?.touched === 'c1');
    const all = [...initial, ...later];
    assert.ok(all.every((e) => ['c1', 'c2'].includes(e.object.metadata.name)), JSON.stringify(all.map((e) => [e.type, e.object.metadata.name])));
    assert.ok(all.every((e) => e.object.spec?.secretRef === undefined));
    // A named watch on another tenant's cluster sees nothing of it.
    const named = await WatchReader.open(a, `${PATH}?watch=true&fieldSelector=metadata.name%3Dc3`);
    await h.upstream.request('PATCH', `${PATH}/c3`, { metadata: { labels: { touched: 'again' } } }, { 'Content-Type': 'application/merge-patch+json' });
    await assert.rejects(named.next(1_500), /no event within/);
    named.close();
    watch.close();
  });

  it('kubectl get clusters shows the allowed ones with Karmada\'s columns', async () => {
    const { stdout } = await run('kubectl', ['--kubeconfig', h.kubeconfigPath('alpha', 'admin'), 'get', 'clusters'], { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
    const lines = stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+VERSION\s+MODE\s+READY\s+AGE$/);
    assert.deepEqual(lines.slice(1).map((l) => l.split(/\s+/)[0]).sort(), ['c1', 'c2']);
  });

  it('losing a cluster ends open watches, so the tenant lists again and forgets it', async () => {
    const watch = await WatchReader.open(a, `${PATH}?watch=true`);
    await watch.until((e) => e.type === 'ADDED' && e.object.metadata.name === 'c2');
    await h.upstream.request('PATCH', '/apis/tenancy.warren.dev/v1alpha1/tenants/alpha/status', { status: { clusters: ['c1'] } }, { 'Content-Type': 'application/merge-patch+json' });
    await watch.waitForEnd(10_000);
    assert.equal(watch.isEnded, true);
    assert.deepEqual(names((await a.get(PATH)).body.items), ['c1']);
    assert.equal((await a.get(`${PATH}/c2`)).status, 404);
  });
});
