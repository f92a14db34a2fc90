// Break 5: the bodies that cost the gateway far more than their size are
// refused before they are parsed (ADR 0026). Not timed: the proof is that the
// limits refuse, in kube's words, and that nothing reaches the upstream.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const PATH = '/api/v1/namespaces/web/configmaps';

describe('heavy request bodies through a running gateway', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    a = h.http('acme', 'admin');
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  const upstreamHas = async (name: string) => (await h.upstreamHttp.get(`/api/v1/namespaces/acme01-web/configmaps/${name}`)).status === 200;

  it('100,000-deep JSON: 400 BadRequest with kube\'s "exceeded max depth", not a 500', async () => {
    const n = 100_000;
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":{},"x":${'['.repeat(n)}${']'.repeat(n)}}`;
    for (const [method, path, contentType] of [['POST', PATH, 'application/json'], ['PATCH', `${PATH}/deep`, 'application/merge-patch+json'], ['PATCH', `${PATH}/deep?fieldManager=t`, 'application/apply-patch+yaml']] as const) {
      const r = await a.request(method, path, { body, contentType });
      assert.equal(r.status, 400, `${method} ${contentType}: ${r.status} ${r.text.slice(0, 300)}`);
      assert.equal(r.body.reason, 'BadRequest');
      assert.match(r.body.message, /json parse error: invalid character '\[' exceeded max depth/);
    }
    assert.equal(await upstreamHas('deep'), false);
  });

  it('the attack\'s 200,000 labels: 400 before parsing, nothing upstream', async () => {
    const labels: Record<string, string> = {};
    for (let i = 0; i < 200_000; i++) labels[`k${i.toString(36)}`] = 'v';
    const r = await a.request('POST', PATH, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wide', labels }, data: { x: 'y' } }) });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(r.body.message, /must be of type ConfigMap.*an object has more than 10000 members/);
    assert.equal(await upstreamHas('wide'), false);
  });

  it('3 MB of one-member objects, each with a key of its own: 400 before parsing (the bound per object did not catch it), nothing upstream', async () => {
    const parts: string[] = [];
    for (let i = 0, len = 0; len < 3_000_000; i++) { const p = `{"${i.toString(36)}":0}`; parts.push(p); len += p.length + 1; }
    const r = await a.request('POST', PATH, { body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"spread"},"x":[${parts.join(',')}]}` });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match(r.body.message, /must be of type ConfigMap.*the body has more than 100000 object members/);
    assert.equal(await upstreamHas('spread'), false);
  });

  it('a tenant\'s large bodies are answered one after another, each in full and translated', async () => {
    // The heavy-body gate (one large body per tenant at a time) must queue, never drop or mix up, writes.
    const labels: Record<string, string> = {};
    for (let i = 0; i < 2_000; i++) labels[`k${i.toString(36)}`] = 'v';
    const body = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { blob: 'x'.repeat(300 * 1024) } });
    const answers = await Promise.all(['big-1', 'big-2', 'big-3'].map((name) => a.post(PATH, body(name))));
    for (const [i, r] of answers.entries()) {
      assert.equal(r.status, 201, r.text.slice(0, 300));
      assert.equal(r.body.metadata.name, `big-${String(i + 1)}`);
      assert.equal(r.body.metadata.namespace, 'web');
      assert.equal(r.body.metadata.labels['tenancy.warren.dev/tenant'], undefined);
      assert.equal(Object.keys(r.body.metadata.labels).length, 2_000);
    }
  });

  it('labels over 256 KiB: 422 as kube words it for annotations; within, created', async () => {
    const labels: Record<string, string> = {};
    for (let i = 0; i < 5_000; i++) labels[`key-${String(i).padStart(5, '0')}-${'k'.repeat(40)}`] = 'v'.repeat(63);
    const r = await a.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'long', labels } });
    assert.equal(r.status, 422, r.text.slice(0, 300));
    assert.equal(r.body.message, 'ConfigMap "long" is invalid: metadata.labels: Too long: must have at most 262144 bytes');
    assert.equal(await upstreamHas('long'), false);
    const few: Record<string, string> = {};
    for (let i = 0; i < 2_000; i++) few[`k${i}`] = 'v';
    const ok = await a.post(PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'many', labels: few } });
    assert.equal(ok.status, 201, ok.text.slice(0, 300));
    assert.equal(Object.keys(ok.body.metadata.labels).length, 2_000);
  });
});
