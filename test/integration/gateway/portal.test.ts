// The provisioning API for portals: platform admins only, idempotent, and it
// hands back a kubeconfig that works through the gateway.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { startOnboardingController } from '../../../src/controllers/onboarding/start-onboarding-controller.ts';
import { mintPlatformAdminToken } from '../../../src/gateway/portal/platform-admin.ts';
import { createSigningKeySet } from '../../../src/tenants/credentials/signing-keys.ts';
import { KubeHttp, type HttpResult } from '../../helpers/kube-http.ts';

describe('gateway: provisioning API for portals', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  let onboarding: { stop(): void };
  let token: string;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    const controller = startOnboardingController({ upstream: h.upstream, gatewayUrl: h.gateway.url, gatewayCaPem: h.gateway.servingCaPem });
    await controller.synced();
    onboarding = controller;
    token = await mintPlatformAdminToken(h.gateway.signingKeys, 'portal', 600);
  });
  after(async () => {
    onboarding?.stop();
    await h?.stop();
  });

  it('refuses tenants, anonymous callers and tokens signed by another key', async () => {
    const body = { spec: { users: [{ name: 'peter', admin: true }] } };
    assert.equal((await h.http('acme', 'admin').put('/warren/v1/tenants/initech', body)).status, 401);
    assert.equal((await h.anonymous().put('/warren/v1/tenants/initech', body)).status, 401);
    const forged = await mintPlatformAdminToken(await createSigningKeySet(), 'mallory', 600);
    const r = await h.anonymous().request('PUT', '/warren/v1/tenants/initech', { body, headers: { Authorization: `Bearer ${forged}` } });
    assert.equal(r.status, 401);
    assert.equal(r.body.kind, 'Status');
  });

  it('PUT provisions a Ready tenant and returns its admin kubeconfig; a retry returns the same tenant', async () => {
    const body = { spec: { users: [{ name: 'peter', admin: true }] } };
    const headers = { Authorization: `Bearer ${token}` };
    const first = await h.anonymous().request('PUT', '/warren/v1/tenants/initech', { body, headers, timeoutMs: 60_000 });
    // 201: this PUT created it (it was 200 before issue 19; kube answers a create with 201).
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.phase, 'Ready');
    assert.match(first.body.id, /^[a-z][a-z0-9]{5}$/);
    const tenantClient = new KubeHttp(first.body.kubeconfig);
    const namespaces = await tenantClient.get('/api/v1/namespaces');
    assert.equal(namespaces.status, 200, namespaces.text);
    assert.deepEqual(namespaces.body.items.map((n: any) => n.metadata.name).sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const again = await h.anonymous().request('PUT', '/warren/v1/tenants/initech', { body, headers, timeoutMs: 60_000 });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    const got = await h.anonymous().request('GET', '/warren/v1/tenants/initech', { headers });
    assert.equal(got.body.phase, 'Ready');
    assert.equal(got.headers.etag, `"${got.body.resourceVersion}"`);
  });

  const admin = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<HttpResult> =>
    h.anonymous().request(method, path, { ...(body === undefined ? {} : { body }), headers: { Authorization: `Bearer ${token}`, ...extra }, timeoutMs: 60_000 });
  const exists = async (name: string): Promise<boolean> => (await h.upstream.request('GET', `/apis/tenancy.warren.dev/v1alpha1/tenants/${name}`)).status === 200;

  it('a bad name is 422 Invalid, not 404; nothing is written', async () => {
    const r = await admin('PUT', '/warren/v1/tenants/Bad_Name', { spec: { users: [{ name: 'a', admin: true }] } });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual([r.body.kind, r.body.reason], ['Status', 'Invalid']);
    assert.match(r.body.message, /metadata\.name: Invalid value: "Bad_Name"/);
  });

  it('an unknown field is refused (400, strict decoding) and leaves nothing behind', async () => {
    const r = await admin('PUT', '/warren/v1/tenants/strict', { spec: { bogus: 1, users: [{ name: 'a', admin: true }] } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.message, 'strict decoding error: unknown field "spec.bogus"');
    assert.equal(await exists('strict'), false);
  });

  it('a spec the controller would refuse, or another tenant\'s id, is 422 and leaves no Pending tenant', async () => {
    const dup = await admin('PUT', '/warren/v1/tenants/dupuser', { spec: { users: [{ name: 'a', admin: true }, { name: 'a' }] } });
    assert.equal(dup.status, 422, dup.text);
    assert.equal(await exists('dupuser'), false);
    // acme's id is taken: only the controller can tell, after the create; the portal removes what it made.
    const taken = await admin('PUT', '/warren/v1/tenants/copycat', { spec: { id: 'acme01', users: [{ name: 'a', admin: true }] } });
    assert.equal(taken.status, 422, taken.text);
    assert.match(taken.body.message, /IdConflict/);
    assert.equal(await exists('copycat'), false);
  });

  it('optimistic concurrency: If-Match with a stale ETag is 409 Conflict; the current one updates (200)', async () => {
    const got = await admin('GET', '/warren/v1/tenants/initech');
    const body = { spec: { displayName: 'Initech', users: [{ name: 'peter', admin: true }] } };
    const stale = await admin('PUT', '/warren/v1/tenants/initech', body, { 'If-Match': '"1"' });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body.reason, 'Conflict');
    const fresh = await admin('PUT', '/warren/v1/tenants/initech', body, { 'If-Match': got.headers.etag as string });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.spec.displayName, 'Initech');
    const missing = await admin('PUT', '/warren/v1/tenants/nosuch', body, { 'If-Match': '"1"' });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(await exists('nosuch'), false);
  });

  it('GET /warren/v1/tenants lists, page by page with limit and continue', async () => {
    const all = await admin('GET', '/warren/v1/tenants');
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body.kind, 'TenantList');
    const names = all.body.items.map((t: { name: string }) => t.name);
    assert.ok(names.includes('acme') && names.includes('initech'), names.join(','));
    const seen: string[] = [];
    let next: string | undefined;
    do {
      const page = await admin('GET', `/warren/v1/tenants?limit=1${next ? `&continue=${encodeURIComponent(next)}` : ''}`);
      assert.equal(page.status, 200, page.text);
      assert.ok(page.body.items.length <= 1);
      seen.push(...page.body.items.map((t: { name: string }) => t.name));
      next = page.body.metadata.continue;
    } while (next);
    assert.deepEqual(seen, names);
    assert.equal((await admin('GET', '/warren/v1/tenants?limit=x')).status, 400);
  });

  it('serves its OpenAPI document to platform admins only', async () => {
    const doc = await admin('GET', '/warren/v1/openapi.json');
    assert.equal(doc.status, 200, doc.text);
    assert.equal(doc.body.openapi, '3.0.3');
    assert.ok(doc.body.paths['/warren/v1/tenants/{name}'].put);
    assert.ok(doc.body.components.schemas.TenantSpec.properties.users);
    assert.equal((await h.anonymous().get('/warren/v1/openapi.json')).status, 401);
  });
});
