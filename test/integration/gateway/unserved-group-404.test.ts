// A path in a group nobody serves: a real kube-apiserver answers `404 page not
// found` in text/plain (its mux has no handler for the group), and so does the
// embedded one. A tenant gets a NotFound Status from the gateway on every verb
// and representation (never a 500 "could not be translated", never the
// upstream's text or a prefixed group name); discovery of the group is the
// gateway's own 404.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { PATCH, type HttpResult, type KubeHttp } from '../../helpers/kube-http.ts';

const BASE = '/apis/nosuch.example.com/v1';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

function assertNotFoundStatus(r: HttpResult, what: string): void {
  assert.equal(r.status, 404, `${what}: ${r.text}`);
  assert.match(String(r.headers['content-type']), /json/, what);
  assert.equal(r.body?.kind, 'Status', what);
  assert.equal(r.body?.reason, 'NotFound', what);
  assert.equal(r.body?.code, 404, what);
  assert.doesNotMatch(r.text, /acme01|page not found/, what);
}

describe('gateway: a group nobody serves is a NotFound Status for the tenant', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  let acme: KubeHttp;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    acme = h.http('acme', 'admin');
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('the embedded upstream answers as a real kube-apiserver does: text/plain 404 page not found', async () => {
    for (const path of ['/apis/nosuch.example.com', BASE, `${BASE}/things`, `${BASE}/namespaces/acme01-web/things/x`]) {
      const r = await h.upstreamHttp.get(path);
      assert.equal(r.status, 404, path);
      assert.match(String(r.headers['content-type']), /^text\/plain/, path);
      assert.equal(r.text, '404 page not found\n', path);
    }
    // A served group's unknown version or resource stays a Status, as on kube.
    for (const path of ['/apis/apps/v9', '/apis/apps/v1/nosuch']) {
      const r = await h.upstreamHttp.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body?.reason, 'NotFound', path);
    }
  });

  it('every verb and representation of a resource path', async () => {
    const thing = { apiVersion: 'nosuch.example.com/v1', kind: 'Thing', metadata: { name: 'x' } };
    const ns = `${BASE}/namespaces/web/things`;
    const cases: Array<[string, () => Promise<HttpResult>]> = [
      ['get', () => acme.get(`${ns}/x`)],
      ['get as Table', () => acme.get(`${ns}/x`, { Accept: TABLE })],
      ['list', () => acme.get(ns)],
      ['list as Table', () => acme.get(ns, { Accept: TABLE })],
      ['list across namespaces', () => acme.get(`${BASE}/things`)],
      ['watch', () => acme.get(`${ns}?watch=1&timeoutSeconds=2`)],
      ['create', () => acme.post(ns, thing)],
      ['update', () => acme.put(`${ns}/x`, thing)],
      ['merge patch', () => acme.patch(`${ns}/x`, PATCH.merge, { metadata: { labels: { a: 'b' } } })],
      ['json patch', () => acme.patch(`${ns}/x`, PATCH.json, [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }])],
      ['server-side apply', () => acme.patch(`${ns}/x?fieldManager=t`, PATCH.apply, thing)],
      ['delete', () => acme.delete(`${ns}/x`)],
      ['deletecollection', () => acme.delete(ns)],
      ['status subresource', () => acme.get(`${ns}/x/status`)],
    ];
    for (const [what, send] of cases) assertNotFoundStatus(await send(), what);
  });

  it('discovery of the group and of its version', async () => {
    for (const path of ['/apis/nosuch.example.com', BASE]) {
      const r = await acme.get(path);
      assert.equal(r.status, 404, path);
      assert.doesNotMatch(r.text, /acme01|could not be translated/, path);
    }
  });
});
