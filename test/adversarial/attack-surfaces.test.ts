// Boundary: the request surfaces a hostile tenant shapes by hand (issue 13's
// untried attacks): escaped and odd URL paths, case and unicode in names,
// names at kube's length limits once the `<id>-` prefix is added, dryRun,
// deletecollection with selectors aimed at another tenant, subresources,
// forged continue tokens and resourceVersions, impersonation headers. Globex
// attacks; acme holds a marked ConfigMap. Each attack is judged by what the
// gateway answers (no acme object, name or prefix in it) and by what the host
// still holds afterwards.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { encodeContinueToken } from '../../src/core/continue-token.ts';
import type { HttpResult } from '../helpers/kube-http.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused } from './support/verdicts.ts';

const MARKER = 'acme-private-marker-7f3c';

describe('adversarial: hand-made request surfaces (paths, names, limits, dryRun, deletecollection, subresources, tokens)', { timeout: 300_000 }, () => {
  const env = useAdversaryEnv('attack-surfaces');
  let acmeId = '';
  let globexId = '';
  const globex = () => env.http('globex');
  const hostGet = (path: string) => env.host().request<KubeObject>('GET', path);
  const acmeCm = () => `/api/v1/namespaces/${acmeId}-shop/configmaps/private`;

  /**
   * Nothing of acme in an answer to globex: no marker, no acme object. A request that itself names
   * `<acme id>-shop` may see that string echoed (to globex it is just a name of its own namespace);
   * `what` is the request, so only an acme prefix the request did not write counts as a leak.
   */
  function assertNoAcme(res: HttpResult, what: string): void {
    assert.ok(!res.text.includes(MARKER), `${what}: acme's data leaked (${res.status}): ${res.text.slice(0, 300)}`);
    if (!what.includes(`${acmeId}-`)) assert.ok(!res.text.includes(`${acmeId}-`), `${what}: acme's prefix leaked (${res.status}): ${res.text.slice(0, 300)}`);
    assert.ok(!res.text.includes(`${globexId}-`), `${what}: globex's own upstream prefix shown (${res.status}): ${res.text.slice(0, 300)}`);
    assert.ok(res.status < 500, `${what}: a 5xx: ${res.status} ${res.text.slice(0, 300)}`);
  }
  async function assertAcmeIntact(what: string): Promise<void> {
    const cm = await hostGet(acmeCm());
    assert.equal(cm.status, 200, `${what}: acme's ConfigMap is still on the host`);
    assert.equal((cm.body as { data?: Record<string, string> }).data?.secret, MARKER, `${what}: acme's ConfigMap unchanged`);
  }

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('acme')('create', 'namespace', 'shop');
    await env.as('acme')('create', 'configmap', 'private', '-n', 'shop', `--from-literal=secret=${MARKER}`);
    await env.as('acme')('label', 'configmap', 'private', '-n', 'shop', 'team=shared');
    await env.as('globex')('create', 'namespace', 'shop');
    await env.as('globex')('create', 'configmap', 'mine', '-n', 'shop', '--from-literal=k=v');
    await env.as('globex')('label', 'configmap', 'mine', '-n', 'shop', 'team=shared');
  });

  it('escaped, dotted and doubled URL paths never reach acme\'s namespace', async () => {
    const a = acmeId;
    const paths = [
      `/api/v1/namespaces/${a}-shop/configmaps/private`,
      `/api/v1/namespaces/shop%2F..%2F..%2Fnamespaces%2F${a}-shop/configmaps/private`,
      `/api/v1/namespaces/shop/..%2F..%2Fnamespaces%2F${a}-shop%2Fconfigmaps%2Fprivate`,
      `/api/v1/namespaces/shop%252F..%252F${a}-shop/configmaps/private`,
      `/api/v1/namespaces/shop/configmaps/../../${a}-shop/configmaps/private`,
      `/api/v1/namespaces/shop/configmaps/%2e%2e/%2e%2e/${a}-shop/configmaps/private`,
      `/api/v1/namespaces/./${a}-shop/configmaps/private`,
      `//api/v1/namespaces/${a}-shop/configmaps/private`,
      `/api/v1//namespaces/${a}-shop/configmaps/private`,
      `/api/v1/namespaces/${a}-shop/configmaps/private/`,
      `/api/v1/namespaces/${a.toUpperCase()}-shop/configmaps/private`,
      `/api/v1/namespaces/shop;ns=${a}-shop/configmaps/private`,
      `/api/v1/namespaces/shop/configmaps/private;${a}-shop`,
      `/api/v1/namespaces/shop/configmaps?fieldSelector=metadata.namespace%3D${a}-shop`,
      `/api/v1/configmaps?fieldSelector=metadata.namespace%3D${a}-shop`,
      `/api/v1/configmaps?fieldSelector=metadata.namespace%3Dshop&fieldSelector=metadata.namespace%3D${a}-shop`,
      `/api/v1/configmaps?labelSelector=team%3Dshared&labelSelector=warren.io%2Ftenant%3D${a}`,
      `/api/v1/configmaps?labelSelector=team%3Dshared`,
      `/api/v1/configmaps?fieldSelector=metadata.name%3Dprivate`,
      `/api/v1/namespaces/shop/configmaps?watch=1&timeoutSeconds=1&fieldSelector=metadata.namespace%3D${a}-shop`,
    ];
    for (const path of paths) assertNoAcme(await globex().get(path), `GET ${path}`);
  });

  it('uppercase and unicode names are refused as kube refuses them, in tenant terms', async () => {
    for (const name of ['Shop', 'sh\u043Ep', 'sho\u0301p', 'sh%C3%B3p', 'shop.', '-shop']) {
      const res = await globex().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      assertRefused(res, 422, `namespace ${JSON.stringify(name)}`, [acmeId, globexId]);
    }
    for (const name of ['Private', 'priv\u0430te', 'a/b', '..']) {
      const res = await globex().post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      assert.ok(res.status === 422 || res.status === 400, `configmap ${JSON.stringify(name)}: refused, got ${res.status} ${res.text.slice(0, 200)}`);
      assertNoAcme(res, `configmap ${JSON.stringify(name)}`);
    }
    const crd = await globex().post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.Example.COM' },
      spec: { group: 'Example.COM', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
    });
    assertRefused(crd, 422, 'a CRD with an uppercase group', [acmeId, globexId]);
    for (const group of ['-example.com', 'example.com.']) {
      const res = await globex().post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
        metadata: { name: `gadgets.${group}` },
        spec: { group, scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
      });
      assertRefused(res, 422, `a CRD group ${JSON.stringify(group)}`, [acmeId, globexId]);
    }
  });

  it('names at kube\'s limits: the limit as the tenant sees it, never the prefixed one, never stored shortened', async () => {
    const room = 63 - globexId.length - 1;
    const fits = 'n'.repeat(room);
    const over = 'n'.repeat(room + 1);
    const ok = await globex().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: fits } });
    assert.equal(ok.status, 201, `a namespace of ${room} characters fits: ${ok.text.slice(0, 200)}`);
    assert.equal(ok.body.metadata.name, fits);
    const res = await globex().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: over } });
    assertRefused(res, 422, `a namespace of ${room + 1} characters`, [acmeId, globexId]);
    assert.ok(res.text.includes(String(room)), `the limit is told in tenant terms (${room}): ${res.text.slice(0, 300)}`);
    const ns63 = await globex().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'm'.repeat(63) } });
    assertRefused(ns63, 422, 'a namespace of 63 characters', [acmeId, globexId]);
    const hostNs = await env.host().request<{ items: KubeObject[] }>('GET', '/api/v1/namespaces');
    for (const ns of hostNs.body.items) assert.ok((ns.metadata.name ?? '').length <= 63 && !(ns.metadata.name ?? '').startsWith(`${globexId}-mmmm`), `no shortened namespace: ${ns.metadata.name}`);
    const cmOver = 'c'.repeat(253);
    const cm = await globex().post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cmOver } });
    assert.ok(cm.status === 201 || cm.status === 422, `a 253-character ConfigMap name: 201 (stored unprefixed-length-safe) or 422, got ${cm.status}`);
    assertNoAcme(cm, 'a 253-character ConfigMap name');
    if (cm.status === 201) assert.equal(cm.body.metadata.name, cmOver, 'stored under the name asked for');
  });

  it('dryRun=All stores nothing and is guarded as a real write', async () => {
    const create = await globex().post('/api/v1/namespaces/shop/configmaps?dryRun=All', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } });
    assert.equal(create.status, 201, `a dry-run create answers 201: ${create.text.slice(0, 200)}`);
    assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-shop/configmaps/dry`)).status, 404, 'nothing stored');
    const cross = await globex().post(`/api/v1/namespaces/${acmeId}-shop/configmaps?dryRun=All`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } });
    assert.ok(cross.status >= 400 && cross.status < 500, `a dry-run create in acme's namespace is refused: ${cross.status}`);
    assertNoAcme(cross, `dry-run create in ${acmeId}-shop`);
    const patch = await globex().patch(`/api/v1/namespaces/${acmeId}-shop/configmaps/private?dryRun=All`, PATCH.merge, { data: { x: 'y' } });
    assertNoAcme(patch, `dry-run patch of ${acmeId}-shop`);
    const del = await globex().request('DELETE', `/api/v1/namespaces/${acmeId}-shop/configmaps/private?dryRun=All`);
    assertNoAcme(del, `dry-run delete of ${acmeId}-shop`);
    const rb = await globex().post('/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings?dryRun=All', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'dry' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }],
    });
    // hank is globex's admin, so kube would bind; the guard still translates: the answer names the
    // group in globex's terms, and nothing is stored.
    assert.equal(rb.status, 201, `a dry-run RoleBinding answers as a real one: ${rb.status} ${rb.text.slice(0, 200)}`);
    assert.equal(rb.body.subjects?.[0]?.name, 'system:masters', 'the answer is in tenant terms');
    assertNoAcme(rb, 'dry-run RoleBinding');
    assert.equal((await hostGet(`/apis/rbac.authorization.k8s.io/v1/namespaces/${globexId}-shop/rolebindings/dry`)).status, 404, 'the dry-run RoleBinding is not stored');
    await assertAcmeIntact('after dry runs');
  });

  it('deletecollection with selectors aimed at acme deletes only globex\'s own', async () => {
    const a = acmeId;
    // kube serves only list and watch at /api/v1/configmaps: 405, and nothing deleted (the gateway
    // answered 200 before, forwarding it with the tenant label selector).
    const cluster = await globex().request('DELETE', '/api/v1/configmaps?labelSelector=team%3Dshared');
    await assertAcmeIntact('cluster-wide deletecollection');
    assertRefused(cluster, 405, 'a cluster-wide configmap deletecollection', [acmeId, globexId]);
    assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-shop/configmaps/mine`)).status, 200, 'globex\'s own labelled ConfigMap survives the refused deletecollection');
    for (const query of [
      `fieldSelector=metadata.namespace%3D${a}-shop`,
      'labelSelector=team%3Dshared&labelSelector=team%3Dother',
      `labelSelector=warren.io%2Ftenant%3D${a}`,
      'fieldSelector=metadata.name%3Dprivate',
    ]) {
      const res = await globex().request('DELETE', `/api/v1/namespaces/shop/configmaps?${query}`);
      assertNoAcme(res, `deletecollection ?${query}`);
      await assertAcmeIntact(`deletecollection ?${query}`);
    }

    const ns = await globex().request('DELETE', '/api/v1/namespaces');
    assert.ok(ns.status >= 400, `deletecollection of namespaces is refused: ${ns.status}`);
    assert.equal((await hostGet(`/api/v1/namespaces/${a}-shop`)).status, 200, 'acme\'s namespace stays');
  });

  it('subresources: unknown ones refused, known ones translated to globex\'s own', async () => {
    const a = acmeId;
    for (const path of [
      '/api/v1/namespaces/shop/configmaps/mine/nonsense',
      '/api/v1/namespaces/shop/configmaps/mine/status/extra',
      `/api/v1/namespaces/${a}-shop/pods/x/log`,
      `/api/v1/namespaces/${a}-shop/serviceaccounts/default/token`,
      `/api/v1/namespaces/${a}-shop/finalize`,
      `/api/v1/namespaces/${a}-shop/status`,
      `/api/v1/namespaces/shop/pods/x/proxy/..%2F..%2F..%2Fnamespaces%2F${a}-shop`,
      `/api/v1/namespaces/shop/services/x:80/proxy/`,
      `/api/v1/nodes/x/proxy/metrics`,
    ]) {
      const res = await globex().get(path);
      assert.ok(res.status >= 400, `GET ${path}: refused, got ${res.status}`);
      assertNoAcme(res, `GET ${path}`);
    }
    const finalize = await globex().put(`/api/v1/namespaces/${a}-shop/finalize`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${a}-shop` }, spec: { finalizers: [] } });
    assert.ok(finalize.status >= 400, `finalize of acme's namespace refused: ${finalize.status}`);
    assertNoAcme(finalize, `finalize ${acmeId}-shop`);
  });

  it('forged continue tokens and resourceVersions yield nothing of acme\'s', async () => {
    const tokens = [
      encodeContinueToken({ rv: 1, start: '' }),
      encodeContinueToken({ rv: 1, start: `/configmaps/${acmeId}-shop/` }),
      encodeContinueToken({ rv: 1, start: `${acmeId}-shop/` }),
      encodeContinueToken({ rv: 1, start: 'shop/' }),
    ];
    for (const token of tokens) {
      for (const base of ['/api/v1/configmaps?limit=500', '/api/v1/namespaces/shop/configmaps?limit=500']) {
        const res = await globex().get(`${base}&continue=${token}`);
        assertNoAcme(res, `${base} continue=${Buffer.from(token, 'base64url').toString()}`);
      }
    }
    const acmeList = await env.http('acme').get('/api/v1/namespaces/shop/configmaps?limit=1');
    const replay = acmeList.body.metadata?.continue as string | undefined;
    if (replay) assertNoAcme(await globex().get(`/api/v1/namespaces/shop/configmaps?limit=1&continue=${replay}`), 'acme\'s continue token replayed by globex');
    const rv = acmeList.body.metadata?.resourceVersion as string;
    for (const q of [`resourceVersion=${rv}&resourceVersionMatch=Exact`, 'resourceVersion=1&resourceVersionMatch=NotOlderThan', 'resourceVersion=0']) {
      assertNoAcme(await globex().get(`/api/v1/configmaps?${q}`), `list ?${q}`);
      assertNoAcme(await globex().get(`/api/v1/configmaps?watch=1&timeoutSeconds=2&allowWatchBookmarks=true&${q}`), `watch ?${q}`);
    }
    assertNoAcme(await globex().get('/api/v1/configmaps?watch=1&timeoutSeconds=2&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true'), 'watch with sendInitialEvents');
  });

  it('table and metadata-only output, impersonation headers and field managers stay inside', async () => {
    const table = await globex().get('/api/v1/configmaps?includeObject=Object', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assertNoAcme(table, 'table with includeObject');
    const partial = await globex().get('/api/v1/configmaps', { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    assertNoAcme(partial, 'partial object metadata');
    const impersonations: Array<Record<string, string>> = [
      { 'Impersonate-User': 'alice' },
      { 'Impersonate-Uid': 'alice' },
      { 'Impersonate-Extra-Tenant': acmeId },
      { 'Impersonate-Group': 'system:masters' },
      { 'Impersonate-User': `warren:${acmeId}:alice` },
    ];
    for (const headers of impersonations) {
      const res = await globex().get(`/api/v1/namespaces/${acmeId}-shop/configmaps/private`, headers);
      assertNoAcme(res, `impersonation ${JSON.stringify(headers)} on ${acmeId}-shop`);
    }
    await env.as('globex')('create', 'configmap', 'managed', '-n', 'shop', '--from-literal=k=v');
    const fm = await globex().patch(`/api/v1/namespaces/shop/configmaps/managed?fieldManager=${encodeURIComponent(`${acmeId}-controller`)}`, PATCH.merge, { data: { k: 'w' } });
    assert.ok(fm.status === 200 || fm.status === 422, `a field manager naming acme's prefix: ${fm.status}`);
    assertNoAcme(fm, `field manager ${acmeId}-controller`);
    await assertAcmeIntact('after output and impersonation probes');
  });
});
