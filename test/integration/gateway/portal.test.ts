// The provisioning API for portals: platform admins only, idempotent, and it
// hands back a kubeconfig that works through the gateway.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { startOnboardingController } from '../../../src/controllers/onboarding/start-onboarding-controller.ts';
import { mintPlatformAdminToken } from '../../../src/gateway/portal/platform-admin.ts';
import { createSigningKeySet } from '../../../src/gateway/credentials/signing-keys.ts';
import { KubeHttp } from '../../helpers/kube-http.ts';

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
    assert.equal(first.status, 200, first.text);
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
  });
});
