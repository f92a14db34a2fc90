// Two tenants through one gateway: objects land upstream under the prefix with
// the tenant label, and every list, watch and Table the tenant gets back holds
// only its own objects, unprefixed.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { WatchReader } from '../../helpers/watch-reader.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const LABEL = 'tenancy.warren.dev/tenant';
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const cm = (name: string, data: Record<string, string> = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const names = (list: any): string[] => (list.items as any[]).map((i) => (i.metadata.namespace ? `${i.metadata.namespace}/${i.metadata.name}` : i.metadata.name)).sort();

describe('gateway: CRUD, lists, watch and tables for two tenants', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  let acme: KubeHttp;
  let globex: KubeHttp;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    acme = h.http('acme', 'admin');
    globex = h.http('globex', 'admin');
    for (const [client, list] of [[acme, ['web', 'db']], [globex, ['web', 'ops']]] as const) {
      for (const n of list) assert.equal((await client.post('/api/v1/namespaces', ns(n))).status, 201);
    }
    assert.equal((await acme.post('/api/v1/namespaces/web/configmaps', cm('a1'))).status, 201);
    assert.equal((await acme.post('/api/v1/namespaces/db/configmaps', cm('a2'))).status, 201);
    assert.equal((await globex.post('/api/v1/namespaces/web/configmaps', cm('b1'))).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('create lands upstream under the prefix with the tenant label', async () => {
    const up = await h.upstreamHttp.get('/api/v1/namespaces/acme01-web/configmaps/a1');
    assert.equal(up.status, 200);
    assert.equal(up.body.metadata.labels[LABEL], 'acme01');
    const upNs = await h.upstreamHttp.get('/api/v1/namespaces/acme01-web');
    assert.equal(upNs.status, 200);
    assert.equal(upNs.body.metadata.labels[LABEL], 'acme01');
    assert.equal((await h.upstreamHttp.get('/api/v1/namespaces/globx1-web/configmaps/b1')).status, 200);
  });

  it('get, update and delete in tenant terms', async () => {
    const got = await acme.get('/api/v1/namespaces/web/configmaps/a1');
    assert.equal(got.status, 200);
    assert.equal(got.body.metadata.namespace, 'web');
    assert.equal(got.body.metadata.labels, undefined, 'the tenant label is hidden');
    const put = await acme.put('/api/v1/namespaces/web/configmaps/a1', { ...got.body, data: { k: 'v2' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.data.k, 'v2');
    assert.equal(put.body.metadata.namespace, 'web');
    const up = await h.upstreamHttp.get('/api/v1/namespaces/acme01-web/configmaps/a1');
    assert.equal(up.body.data.k, 'v2');
    assert.equal(up.body.metadata.labels[LABEL], 'acme01');
    assert.equal((await acme.post('/api/v1/namespaces/web/configmaps', cm('tmp'))).status, 201);
    assert.equal((await acme.delete('/api/v1/namespaces/web/configmaps/tmp')).status, 200);
    assert.equal((await h.upstreamHttp.get('/api/v1/namespaces/acme01-web/configmaps/tmp')).status, 404);
  });

  it('a namespaced list shows the tenant\'s objects only', async () => {
    const a = await acme.get('/api/v1/namespaces/web/configmaps');
    assert.equal(a.status, 200);
    assert.deepEqual(names(a.body).filter((n) => !n.endsWith('kube-root-ca.crt')), ['web/a1']);
    const b = await globex.get('/api/v1/namespaces/web/configmaps');
    assert.deepEqual(names(b.body).filter((n) => !n.endsWith('kube-root-ca.crt')), ['web/b1']);
  });

  it('an all-namespaces list shows the tenant\'s objects only, unprefixed', async () => {
    const a = await acme.get('/api/v1/configmaps');
    assert.equal(a.status, 200);
    assert.deepEqual(names(a.body).filter((n) => !n.endsWith('kube-root-ca.crt')), ['db/a2', 'web/a1']);
    assert.doesNotMatch(a.text, /acme01|globx1/);
  });

  it('a cluster-scoped list shows the tenant\'s namespaces only, unprefixed', async () => {
    const a = await acme.get('/api/v1/namespaces');
    assert.deepEqual(names(a.body), ['db', 'web']);
    const b = await globex.get('/api/v1/namespaces');
    assert.deepEqual(names(b.body), ['ops', 'web']);
  });

  it('Table output (kubectl\'s Accept) has unprefixed names and only the tenant\'s rows', async () => {
    const t = await acme.get('/api/v1/namespaces', { Accept: TABLE_ACCEPT });
    assert.equal(t.status, 200);
    assert.equal(t.body.kind, 'Table');
    assert.deepEqual(t.body.rows.map((r: any) => r.cells[0]).sort(), ['db', 'web']);
    assert.doesNotMatch(t.text, /acme01|globx1/);
    const all = await acme.get('/api/v1/configmaps', { Accept: TABLE_ACCEPT });
    assert.equal(all.body.kind, 'Table');
    assert.ok(all.body.rows.every((r: any) => ['web', 'db'].includes(r.object?.metadata?.namespace)), all.text);
    assert.doesNotMatch(all.text, /acme01|globx1/);
  });

  it('a namespaced watch delivers only the tenant\'s events, translated', async () => {
    const rv = (await acme.get('/api/v1/namespaces/web/configmaps')).body.metadata.resourceVersion;
    const w = await WatchReader.open(acme, `/api/v1/namespaces/web/configmaps?watch=1&resourceVersion=${rv}`);
    try {
      assert.equal(w.status, 200);
      assert.equal((await globex.post('/api/v1/namespaces/web/configmaps', cm('b-noise'))).status, 201);
      assert.equal((await acme.post('/api/v1/namespaces/web/configmaps', cm('a-watched'))).status, 201);
      const seen = await w.until((e) => e.object?.metadata?.name === 'a-watched', 10_000);
      for (const e of seen) {
        assert.equal(e.object.metadata.namespace, 'web');
        assert.notEqual(e.object.metadata.name, 'b-noise');
        assert.equal(e.object.metadata.labels?.[LABEL], undefined);
      }
      assert.equal(seen.at(-1)!.type, 'ADDED');
    } finally { w.close(); }
  });

  it('an all-namespaces watch delivers only the tenant\'s events, translated', async () => {
    const rv = (await acme.get('/api/v1/configmaps')).body.metadata.resourceVersion;
    const w = await WatchReader.open(acme, `/api/v1/configmaps?watch=true&resourceVersion=${rv}`);
    try {
      assert.equal(w.status, 200);
      assert.equal((await globex.post('/api/v1/namespaces/ops/configmaps', cm('b-noise2'))).status, 201);
      assert.equal((await acme.post('/api/v1/namespaces/db/configmaps', cm('a-all'))).status, 201);
      const seen = await w.until((e) => e.object?.metadata?.name === 'a-all', 10_000);
      for (const e of seen) {
        assert.ok(['web', 'db'].includes(e.object.metadata.namespace), JSON.stringify(e));
        assert.doesNotMatch(JSON.stringify(e), /acme01|globx1|b-noise/);
      }
    } finally { w.close(); }
  });

  it('a cluster-scoped watch (namespaces) delivers only the tenant\'s namespaces', async () => {
    const rv = (await acme.get('/api/v1/namespaces')).body.metadata.resourceVersion;
    const w = await WatchReader.open(acme, `/api/v1/namespaces?watch=true&resourceVersion=${rv}`);
    try {
      assert.equal((await globex.post('/api/v1/namespaces', ns('b-only'))).status, 201);
      assert.equal((await acme.post('/api/v1/namespaces', ns('a-new'))).status, 201);
      const seen = await w.until((e) => e.object?.metadata?.name === 'a-new', 10_000);
      assert.ok(seen.every((e) => e.object.metadata.name !== 'b-only'), JSON.stringify(seen));
      assert.doesNotMatch(JSON.stringify(seen), /acme01|globx1/);
    } finally { w.close(); }
  });
});
