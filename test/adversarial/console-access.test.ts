// The web console is for platform admins only: every tenant credential
// (client certificate or Warren token, admin of its tenant or not) gets 403 on
// the page, its assets and every console API path, actions and kubeconfig
// downloads included, and a forged admin token gets 401. What an admin gets
// carries no credential. (Browser flows: test/browser/console.test.ts.)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../helpers/gateway-harness.ts';
import { mintPlatformAdminToken } from '../../src/gateway/portal/platform-admin.ts';
import { createSigningKeySet } from '../../src/tenants/credentials/signing-keys.ts';
import { TENANTS_PATH } from '../../src/tenants/tenant-crd.ts';

const PATHS: [string, string][] = [
  ['GET', '/console/'], ['GET', '/console/app.js'], ['GET', '/console/app.css'], ['GET', '/console'],
  ['GET', '/console/api/state'], ['GET', '/console/api/live'], ['GET', '/console/api/tenants/globex'], ['GET', '/console/api/tenants/acme'],
  ['POST', '/console/api/tenants/globex/suspend'], ['POST', '/console/api/tenants/globex/revoke'], ['POST', '/console/api/tenants/globex/kubeconfig'],
  ['POST', '/console/api/tenants/acme/kubeconfig'], ['GET', '/console/api/nonsense'],
];

describe('console access: platform admins only', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  let admin: Record<string, string>;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    admin = { Authorization: `Bearer ${await mintPlatformAdminToken(h.gateway.signingKeys, 'console-test', 600)}` };
  });
  after(async () => {
    await h?.stop();
  });

  it('a tenant\'s client certificate gets 403 on every console path, in kube\'s words', async () => {
    for (const tenant of TWO_TENANTS) {
      for (const user of tenant.users) {
        for (const [method, path] of PATHS) {
          const r = await h.http(tenant.name, user.name).request(method, path);
          assert.equal(r.status, 403, `${tenant.name}/${user.name} ${method} ${path}: ${r.text}`);
          assert.equal(r.body.reason, 'Forbidden');
          assert.match(r.body.message, new RegExp(`User "${user.name}" cannot get path`));
        }
      }
    }
  });

  it('a tenant\'s Warren token gets 403 too, and a token signed by another key 401', async () => {
    const token = await h.token('acme', 'admin');
    const forged = await mintPlatformAdminToken(await createSigningKeySet(), 'mallory', 600);
    for (const [method, path] of PATHS) {
      const asTenant = await h.anonymous().request(method, path, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(asTenant.status, 403, `${method} ${path}: ${asTenant.text}`);
      const asForger = await h.anonymous().request(method, path, { headers: { Authorization: `Bearer ${forged}` } });
      assert.equal(asForger.status, 401, `${method} ${path}: ${asForger.text}`);
    }
  });

  it('without a credential: the sign-in page loads, the API answers 401', async () => {
    const page = await h.anonymous().request('GET', '/console/');
    assert.equal(page.status, 200);
    assert.match(page.text, /<script type="module" src="app.js">/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.equal((await h.anonymous().request('GET', '/console/app.js')).status, 200);
    for (const [method, path] of PATHS.filter(([, p]) => p.startsWith('/console/api/'))) {
      assert.equal((await h.anonymous().request(method, path)).status, 401, `${method} ${path}`);
    }
  });

  it('the admin\'s state lists the tenants and carries no credential; actions write the Tenant', async () => {
    const state = await h.anonymous().request('GET', '/console/api/state', { headers: admin });
    assert.equal(state.status, 200, state.text);
    assert.deepEqual(state.body.tenants.map((t: { name: string }) => t.name), ['acme', 'globex']);
    assert.doesNotMatch(state.text, /BEGIN|client-key-data|kubeconfigSecretRef|token/i);
    // A change without the console's header (what a cross-site form carrying an admin's client certificate
    // would send) is refused before anything is written.
    const crossSite = await h.anonymous().request('POST', '/console/api/tenants/globex/suspend', { headers: admin });
    assert.equal(crossSite.status, 403, crossSite.text);
    assert.notEqual((await h.upstream.request<{ spec: { suspended?: boolean } }>('GET', `${TENANTS_PATH}/globex`)).body.spec.suspended, true);
    const change = { ...admin, 'x-warren-console': '1' };
    const suspended = await h.anonymous().request('POST', '/console/api/tenants/globex/suspend', { headers: change });
    assert.equal(suspended.status, 200, suspended.text);
    const stored = await h.upstream.request<{ spec: { suspended?: boolean } }>('GET', `${TENANTS_PATH}/globex`);
    assert.equal(stored.body.spec.suspended, true);
    const resumed = await h.anonymous().request('POST', '/console/api/tenants/globex/resume', { headers: change });
    assert.equal(resumed.status, 200);
    const bad = await h.anonymous().request('POST', '/console/api/tenants/No_Such/suspend', { headers: change });
    assert.equal(bad.status, 422, 'a tenant name is a DNS label');
    const missing = await h.anonymous().request('POST', '/console/api/tenants/nosuch/suspend', { headers: change });
    assert.equal(missing.status, 404);
    const wrongVerb = await h.anonymous().request('GET', '/console/api/tenants/globex/kubeconfig', { headers: admin });
    assert.equal(wrongVerb.status, 405, 'a download is a POST: never a link, never prefetched');
    const badEscape = await h.anonymous().request('POST', '/console/api/tenants/%E0%A4%A/suspend', { headers: change });
    assert.equal(badEscape.status, 422, badEscape.text);
    const inherited = await h.anonymous().request('GET', '/console/constructor', { headers: admin });
    assert.equal(inherited.status, 404, 'an inherited property is not a console file');
    assert.doesNotMatch(inherited.text, /ENOENT|\/console\/web/);
  });

  it('the admin picks whose kubeconfig to download; only users of that tenant, only from its own Secret', async () => {
    const change = { ...admin, 'x-warren-console': '1' };
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    const patch = { 'Content-Type': 'application/merge-patch+json' };
    await h.upstream.request('PATCH', `${TENANTS_PATH}/acme`, { spec: { users: [{ name: 'dev' }, { name: 'admin', admin: true }] } }, patch);
    // A status pointing at globex's Secret is not followed: the Secret is named from the Tenant's own name.
    const status = await h.upstream.request('PATCH', `${TENANTS_PATH}/acme/status`, { status: { kubeconfigSecretRef: { namespace: 'warren-system', name: 'tenant-globex-kubeconfigs' } } }, patch);
    assert.equal(status.status, 200, JSON.stringify(status.body));
    await h.upstream.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'warren-system' } });
    for (const [tenant, users] of [['acme', ['admin', 'dev', 'ghost']], ['globex', ['admin', 'dev']]] as const) {
      const data = Object.fromEntries(users.map((u) => [`${u}.kubeconfig`, b64(`kubeconfig of ${tenant}/${u}`)]));
      const made = await h.upstream.request('POST', '/api/v1/namespaces/warren-system/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: `tenant-${tenant}-kubeconfigs` }, data });
      assert.equal(made.status, 201, JSON.stringify(made.body));
    }
    const download = (query: string) => h.anonymous().request('POST', `/console/api/tenants/acme/kubeconfig${query}`, { headers: change });
    const first = await download('');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.text, 'kubeconfig of acme/admin', 'without a choice: the first admin');
    assert.equal(first.headers['content-disposition'], 'attachment; filename="acme-admin.kubeconfig"');
    const dev = await download('?user=dev');
    assert.equal(dev.status, 200, dev.text);
    assert.equal(dev.text, 'kubeconfig of acme/dev');
    assert.equal(dev.headers['content-disposition'], 'attachment; filename="acme-dev.kubeconfig"');
    const ghost = await download('?user=ghost');
    assert.equal(ghost.status, 404, 'a key in the Secret that the spec does not name is nobody\'s to download');
    assert.doesNotMatch(ghost.text, /kubeconfig of/);
    assert.match(ghost.body.message, /has no user "ghost"/);
    const crossSite = await h.anonymous().request('POST', '/console/api/tenants/acme/kubeconfig?user=dev', { headers: admin });
    assert.equal(crossSite.status, 403, 'a download needs the console header too');
  });
});
