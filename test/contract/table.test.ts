// Table output (what `kubectl get` prints): kube-apiserver's column sets for
// pods, deployments and configmaps.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { serverMinor } from '../helpers/contract-features.ts';
import { useContractServer } from '../helpers/contract-suite.ts';
import { configMap, deployment, pod } from '../fixtures/objects.ts';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('Table output', { timeout: 60_000 }, () => {
  const ctx = useContractServer();

  const cases = [
    {
      resource: 'pods', path: (ns: string) => `/api/v1/namespaces/${ns}/pods`, create: () => pod('tp'),
      columns: [['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0], ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1]],
      // Restarts became a string ("0", later "3 (5m ago)") after 1.20, which prints the number.
      cells: (minor: number) => ['tp', '0/1', 'Pending', minor <= 20 ? 0 : '0'],
    },
    {
      resource: 'deployments', path: (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments`, create: () => deployment('td', { replicas: 2 }),
      columns: [['Name', 0], ['Ready', 0], ['Up-to-date', 0], ['Available', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1]],
      cells: () => ['td', '0/2'],
    },
    {
      resource: 'configmaps', path: (ns: string) => `/api/v1/namespaces/${ns}/configmaps`, create: () => configMap('tc', { a: '1', b: '2' }),
      columns: [['Name', 0], ['Data', 0], ['Age', 0]],
      cells: () => ['tc', 2],
    },
  ];
  for (const c of cases) {
    it(`${c.resource}: column definitions and row cells`, async () => {
      const ns = await ctx.namespaces.create('tbl');
      assert.equal((await ctx.http.post(c.path(ns), c.create())).status, 201);
      const cells = c.cells(await serverMinor(ctx.http));
      const name = cells[0] as string;
      const res = await ctx.http.get(`${c.path(ns)}?fieldSelector=metadata.name%3D${name}`, { Accept: TABLE });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.kind, 'Table');
      assert.equal(res.body.apiVersion, 'meta.k8s.io/v1');
      assert.deepEqual(res.body.columnDefinitions.map((d: any) => [d.name, d.priority ?? 0]), c.columns);
      assert.equal(res.body.columnDefinitions[0].format, 'name');
      assert.equal(res.body.rows.length, 1);
      const row = res.body.rows[0];
      assert.deepEqual(row.cells.slice(0, cells.length), cells);
      assert.equal(row.cells.length, c.columns.length);
      assert.match(row.cells[c.columns.findIndex(([n]) => n === 'Age')], /^\d+s$/);
      // Default includeObject=Metadata.
      assert.equal(row.object.kind, 'PartialObjectMetadata');
      assert.equal(row.object.metadata.name, name);
      assert.match(res.body.metadata.resourceVersion, /^\d+$/);
    });
  }

  it('a single object GET as Table has one row', async () => {
    const ns = await ctx.namespaces.create('tbl');
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('one'));
    const res = await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/one`, { Accept: TABLE });
    assert.equal(res.body.kind, 'Table');
    assert.deepEqual(res.body.rows.map((r: any) => r.cells[0]), ['one']);
  });

  it('includeObject=Object embeds the full object', async () => {
    const ns = await ctx.namespaces.create('tbl');
    await ctx.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('full', { x: 'y' }));
    const res = await ctx.http.get(`/api/v1/namespaces/${ns}/configmaps/full?includeObject=Object`, { Accept: TABLE });
    assert.equal(res.body.rows[0].object.kind, 'ConfigMap');
    assert.deepEqual(res.body.rows[0].object.data, { x: 'y' });
  });
});
