// Break 8, as the attacker ran it: tenant acme (id acme01) is deleted, a new
// Tenant is created with the same id, and acme's old certificate and token
// work again, now as the new tenant. Credentials are bound to the Tenant object
// (ADR 0025): the old ones get 401, over real HTTPS and with real kubectl.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import { kubectl, writeTempKubeconfig } from '../../helpers/kubectl.ts';
import { KubeHttp } from '../../helpers/kube-http.ts';
import { issueTenantUserCertificate, tenantUserKubeconfig } from '../../../src/tenants/credentials/issue-certificate.ts';
import { mintTenantToken } from '../../../src/tenants/credentials/signing-keys.ts';
import { tenantServerUrl } from '../../../src/tenants/tenant-url.ts';

const TENANTS = '/apis/tenancy.warren.dev/v1alpha1/tenants';

describe('adversarial: a Tenant made again with a deleted one\'s id refuses its credentials', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  let oldUid: string;
  const yamlOf = (cert: { certPem: string; keyPem: string }) => tenantUserKubeconfig({
    server: tenantServerUrl(h.gateway.url, 'acme01'), caCertPem: h.gateway.servingCaPem, tenantName: 'acme', user: 'admin', cert: cert.certPem, key: cert.keyPem,
  });
  const bearer = (token: string) => fetchWithToken(h, token);

  before(async () => { h = await startGatewayHarness({ tenants: TWO_TENANTS }); });
  after(async () => { await h?.stop(); });

  it('old credentials work before, are refused with 401 after the id is reused; the new Tenant\'s work', async () => {
    oldUid = h.gateway.tenants.byId('acme01')?.uid ?? '';
    assert.notEqual(oldUid, '');
    const bound = await issueTenantUserCertificate({ ca: h.gateway.tenantCa, tenantId: 'acme01', user: 'admin', groups: [], lifetimeMs: 3600_000, tenantUid: oldUid });
    const legacy = await issueTenantUserCertificate({ ca: h.gateway.tenantCa, tenantId: 'acme01', user: 'admin', groups: [], lifetimeMs: 3600_000 });
    const boundToken = await mintTenantToken({ keys: h.gateway.signingKeys, tenantId: 'acme01', user: 'admin', groups: [], ttlSeconds: 3600, tenantUid: oldUid });
    const legacyToken = await mintTenantToken({ keys: h.gateway.signingKeys, tenantId: 'acme01', user: 'admin', groups: [], ttlSeconds: 3600 });
    for (const [what, client] of [['bound cert', new KubeHttp(yamlOf(bound))], ['legacy cert', new KubeHttp(yamlOf(legacy))]] as const) {
      assert.equal((await client.get('/api/v1/namespaces')).status, 200, what);
    }
    for (const token of [boundToken, legacyToken]) assert.equal((await bearer(token)).status, 200);

    // The platform deletes acme and, later, onboards someone else under the same id.
    assert.equal((await h.upstreamHttp.delete(`${TENANTS}/acme`)).status, 200);
    await eventually(async () => h.gateway.tenants.byId('acme01') === undefined, 'the gateway to forget acme01', { timeoutMs: 10_000 });
    // Whole seconds on credentials: let the old ones' second pass before the new Tenant exists.
    await eventually(async () => Math.floor(Date.now() / 1000) > Math.floor(legacy.notBefore.getTime() / 1000) + 1, 'a new second', { timeoutMs: 5_000 });
    const created = await h.upstreamHttp.post(TENANTS, { apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'acme-reborn' }, spec: { id: 'acme01' } });
    assert.equal(created.status, 201, created.text);
    const newUid = created.body.metadata.uid as string;
    assert.notEqual(newUid, oldUid);
    await eventually(async () => h.gateway.tenants.byId('acme01')?.uid === newUid, 'the gateway to know the new acme01', { timeoutMs: 10_000 });

    for (const [what, cert] of [['bound cert', bound], ['legacy cert', legacy]] as const) {
      const r = await new KubeHttp(yamlOf(cert)).get('/api/v1/namespaces');
      assert.equal(r.status, 401, `${what}: ${r.status} ${r.text}`);
      assert.equal(r.body.reason, 'Unauthorized');
      assert.doesNotMatch(r.text, /acme01|uid|creat/, 'the 401 says nothing about the tenant');
    }
    for (const token of [boundToken, legacyToken]) assert.equal((await bearer(token)).status, 401);

    const kc = writeTempKubeconfig(yamlOf(bound));
    const res = await kubectl('1.32', ['get', 'namespaces'], { kubeconfigPath: kc });
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /You must be logged in to the server|Unauthorized/);

    // The new Tenant's own credentials work (the harness's cluster-admin binding upstream is still there).
    const fresh = await issueTenantUserCertificate({ ca: h.gateway.tenantCa, tenantId: 'acme01', user: 'admin', groups: [], lifetimeMs: 3600_000, tenantUid: newUid });
    assert.equal((await new KubeHttp(yamlOf(fresh)).get('/api/v1/namespaces')).status, 200);
    const freshToken = await mintTenantToken({ keys: h.gateway.signingKeys, tenantId: 'acme01', user: 'admin', groups: [], ttlSeconds: 3600, tenantUid: newUid });
    assert.equal((await bearer(freshToken)).status, 200);
    // And the other tenant never noticed.
    assert.equal((await h.http('globex', 'admin').get('/api/v1/namespaces')).status, 200);
  });
});

async function fetchWithToken(h: GatewayHarness, token: string): Promise<{ status: number }> {
  const anonymous = h.anonymous();
  return await anonymous.get('/api/v1/namespaces', { Authorization: `Bearer ${token}` });
}
