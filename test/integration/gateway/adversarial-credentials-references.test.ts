// Tenant A tries forged credentials and headers, object references into B, and
// side channels (discovery, OpenAPI, tables, watches across a namespace that
// changes hands). Each route is a named test.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { createCa } from '../../../src/pki/certificates.ts';
import { issueTenantUserCertificate } from '../../../src/tenants/credentials/issue-certificate.ts';
import { createSigningKeySet, mintTenantToken } from '../../../src/tenants/credentials/signing-keys.ts';
import { WatchReader } from '../../helpers/watch-reader.ts';
import { eventually } from '../../helpers/poll.ts';
import { startWorld, assertNoLeak, type World } from './adversarial-world.ts';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const AGG_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('adversarial: credentials, references and side channels', { timeout: 90_000 }, () => {
  let w: World;
  before(async () => { w = await startWorld(); });
  after(async () => { await w?.h.stop(); });
  const bearer = (token: string) => w.h.anonymous().get('/api/v1/namespaces/web/configmaps', { Authorization: `Bearer ${token}` });

  // --- credentials and headers ---
  // Impersonate-* is kube's impersonation now (ADR 0022): refused unless the tenant's RBAC
  // allows it, and never a way to act as someone the caller may not be. X-Remote-* is ignored.
  for (const [headers, code, message] of <Array<[Record<string, string>, number, RegExp]>>[
    [{ 'Impersonate-User': 'admin' }, 403, /^users "admin" is forbidden: User "dev" cannot impersonate resource "users"/],
    [{ 'Impersonate-User': 'admin', 'Impersonate-Group': 'system:masters' }, 403, /^users "admin" is forbidden: User "dev" cannot impersonate/],
    [{ 'Impersonate-Uid': 'x', 'Impersonate-Extra-Scopes': 'all', 'Impersonate-Group': 'system:masters' }, 400, /without impersonating a user name/],
    [{ 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' }, 403, /User "dev" cannot list/],
    [{ 'Impersonate-User': 'system:admin', 'X-Remote-User': 'globx1:admin' }, 403, /^users "system:admin" is forbidden: User "dev" cannot impersonate/],
  ]) {
    it(`forged identity headers never act for someone else: ${Object.keys(headers).join(', ')}`, async () => {
      const r = await w.h.http('acme', 'dev').get('/api/v1/namespaces/web/secrets', headers);
      assert.equal(r.status, code, r.text);
      assert.match(r.body.message, message);
    });
  }

  it('a JWT with alg none is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ iss: 'https://warren.local', sub: 'admin', aud: 'warren', 'warren.dev/tenant': 'acme01', groups: [], iat: now, exp: now + 600 })}.`;
    const r = await bearer(token);
    assert.equal(r.status, 401, r.text);
  });

  it('a JWT signed by another key is refused (same kid as Warren\'s)', async () => {
    const other = await createSigningKeySet();
    other.current = { ...other.current, kid: w.h.gateway.signingKeys.current.kid, privateJwk: { ...other.current.privateJwk, kid: w.h.gateway.signingKeys.current.kid } };
    assert.equal((await bearer(await mintTenantToken({ keys: other, tenantId: 'acme01', user: 'admin', groups: [], ttlSeconds: 600 }))).status, 401);
  });

  it('a JWT with B\'s tenant claim signed by another key is refused', async () => {
    const other = await createSigningKeySet();
    const r = await bearer(await mintTenantToken({ keys: other, tenantId: 'globx1', user: 'admin', groups: [], ttlSeconds: 600 }));
    assert.equal(r.status, 401);
    assertNoLeak(r, 'forged B token');
  });

  it('an HS256 JWT keyed with Warren\'s public key is refused', async () => {
    const pub = w.h.gateway.signingKeys.current.privateJwk;
    const secret = new TextEncoder().encode(JSON.stringify({ kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y }));
    const token = await new SignJWT({ 'warren.dev/tenant': 'acme01', groups: [] }).setProtectedHeader({ alg: 'HS256', kid: pub.kid! })
      .setIssuer('https://warren.local').setSubject('admin').setAudience('warren').setIssuedAt().setExpirationTime('10m').sign(secret);
    assert.equal((await bearer(token)).status, 401);
  });

  it('an expired Warren JWT is refused', async () => {
    const token = await mintTenantToken({ keys: w.h.gateway.signingKeys, tenantId: 'acme01', user: 'admin', groups: [], ttlSeconds: 60, now: new Date(Date.now() - 3600_000) });
    assert.equal((await bearer(token)).status, 401);
  });

  it('control: a valid Warren JWT works', async () => {
    assert.equal((await bearer(await w.h.token('acme', 'admin'))).status, 200);
  });

  it('an expired certificate is refused', async () => {
    const cert = await w.h.issue('acme01', 'admin', { notBefore: new Date(Date.now() - 2 * 3600_000), lifetimeMs: 3600_000 });
    const outcome = await w.h.clientFor(cert).get('/api/v1/namespaces').then((r) => r.status, (err: Error) => `tls: ${err.message}`);
    assert.ok(outcome === 401 || String(outcome).startsWith('tls:'), `expired certificate got ${outcome}`);
  });

  it('a certificate from another CA fails the TLS handshake', async () => {
    const otherCa = await createCa('warren-tenant-ca');
    const cert = await issueTenantUserCertificate({ ca: otherCa, tenantId: 'acme01', user: 'admin', groups: ['system:masters'], lifetimeMs: 3600_000 });
    await assert.rejects(w.h.clientFor(cert).get('/api/v1/namespaces'), /socket|ECONNRESET|alert|certificate|EPIPE/i);
  });

  it('a self-made certificate naming B\'s tenant id in its OU fails the TLS handshake', async () => {
    const otherCa = await createCa('warren-tenant-ca');
    const cert = await issueTenantUserCertificate({ ca: otherCa, tenantId: 'globx1', user: 'admin', groups: [], lifetimeMs: 3600_000 });
    await assert.rejects(w.h.clientFor(cert).get('/api/v1/namespaces/web/configmaps/b-secret'), /socket|ECONNRESET|alert|certificate|EPIPE/i);
  });

  it('B\'s certificate used with A\'s namespace names is simply B', async () => {
    const r = await w.b.get('/api/v1/namespaces/web/configmaps');
    const names = r.body.items.map((i: any) => i.metadata.name);
    assert.ok(names.includes('b-secret'));
    assert.ok(!names.includes('a-own'));
  });

  it('no credentials: public endpoints answer, resources are 401', async () => {
    const anon = w.h.anonymous();
    for (const p of ['/healthz', '/livez', '/readyz', '/version', '/openid/v1/jwks']) assert.equal((await anon.get(p)).status, 200, p);
    const r = await anon.get('/api/v1/namespaces');
    assert.equal(r.status, 401);
    assertNoLeak(r, 'anonymous');
  });

  // --- object references ---
  it('ownerReferences to B\'s Deployment uid: A\'s object neither affects B nor reveals it', async () => {
    const r = await w.a.post('/api/v1/namespaces/web/configmaps', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned-by-b', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx', uid: w.bDeploymentUid, blockOwnerDeletion: true }] },
    });
    assertNoLeak(r, 'owner ref create', 'nginx');
    await new Promise((res) => setTimeout(res, 500)); // let the garbage collector look at it
    assert.equal((await w.b.get('/apis/apps/v1/namespaces/web/deployments/nginx')).status, 200);
    const get = await w.a.get('/apis/apps/v1/namespaces/web/deployments/nginx');
    assert.equal(get.status, 404);
    const list = await w.a.get('/apis/apps/v1/deployments');
    assert.deepEqual(list.body.items, []);
  });

  it('RoleBindings in A naming B\'s ClusterRole, B\'s namespaces and B-prefixed users stay inside A', async () => {
    const r = await w.a.post('/apis/rbac.authorization.k8s.io/v1/namespaces/web/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'reach-b' },
      subjects: [
        { kind: 'ServiceAccount', name: 'default', namespace: 'globx1-web' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'b-private' },
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'globx1:admin' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'globx1-b-role' },
    });
    assert.equal(r.status, 201, r.text);
    const up = await w.h.upstreamHttp.get('/apis/rbac.authorization.k8s.io/v1/namespaces/acme01-web/rolebindings/reach-b');
    assert.equal(up.body.roleRef.name, 'acme01-globx1-b-role');
    assert.equal(up.body.subjects.length, 3);
    for (const s of up.body.subjects) assert.ok(s.kind === 'User' && s.name.startsWith('warren:acme01:'), JSON.stringify(s));
    const crb = await w.a.post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'reach-b' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'dev' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'b-role' },
    });
    assert.equal(crb.status, 201, crb.text);
    const upCrb = await w.h.upstreamHttp.get('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/acme01-reach-b');
    assert.equal(upCrb.body.roleRef.name, 'acme01-b-role');
    // A's dev bound to "b-role" gets nothing: A has no ClusterRole of that name, and B's is not A's.
    await new Promise((res) => setTimeout(res, 300));
    assert.equal((await w.h.http('acme', 'dev').get('/api/v1/namespaces/web/configmaps')).status, 403);
    // And B's own users gained nothing in A.
    assert.equal((await w.h.http('globex', 'dev').get('/api/v1/namespaces/web/configmaps')).status, 403);
  });

  // --- side channels ---
  it('discovery: B\'s CRD group and kinds are absent from A\'s /apis (legacy and aggregated)', async () => {
    for (const accept of ['application/json', AGG_ACCEPT]) assertNoLeak(await w.a.get('/apis', { Accept: accept }), `/apis ${accept}`);
    assertNoLeak(await w.a.get('/api', { Accept: AGG_ACCEPT }), '/api aggregated');
    const g = await w.a.get('/apis/b.example.com/v1');
    assert.equal(g.status, 404);
  });

  it('OpenAPI: B\'s schemas are absent from A\'s /openapi/v2, the v3 index and the v3 docs', async () => {
    const v2 = await w.a.get('/openapi/v2');
    assert.equal(v2.status, 200);
    assertNoLeak(v2, '/openapi/v2');
    const v3 = await w.a.get('/openapi/v3');
    assert.equal(v3.status, 200);
    assertNoLeak(v3, '/openapi/v3');
    for (const path of Object.keys(v3.body.paths ?? {})) assertNoLeak(await w.a.get(`/openapi/v3/${path}`), `/openapi/v3/${path}`);
    const b = await w.a.get('/openapi/v3/apis/b.example.com/v1');
    assert.equal(b.status, 404);
  });

  it('Table cells of A\'s lists hold nothing of B', async () => {
    for (const p of ['/api/v1/namespaces', '/api/v1/configmaps', '/apis/apps/v1/deployments', '/apis/rbac.authorization.k8s.io/v1/clusterroles', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions']) {
      const r = await w.a.get(p, { Accept: TABLE_ACCEPT });
      assert.equal(r.status, 200, p);
      assertNoLeak(r, `Table ${p}`);
    }
  });

  it('watch: B deleting and recreating its "web" never shows in A\'s watch of "web"', async () => {
    const rv = (await w.a.get('/api/v1/namespaces/web/configmaps')).body.metadata.resourceVersion;
    const aw = await WatchReader.open(w.a, `/api/v1/namespaces/web/configmaps?watch=1&resourceVersion=${rv}`);
    const all = await WatchReader.open(w.a, `/api/v1/configmaps?watch=1&resourceVersion=${rv}`);
    try {
      assert.equal((await w.b.delete('/api/v1/namespaces/web')).status, 200);
      await eventually(async () => (await w.b.get('/api/v1/namespaces/web')).status === 404, 'B\'s web to go', { timeoutMs: 15_000 });
      assert.equal((await w.b.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
      assert.equal((await w.b.post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b-secret' }, data: { v: 'B-MARKER' } })).status, 201);
      assert.equal((await w.a.post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a-sentinel' } })).status, 201);
      for (const reader of [aw, all]) {
        const seen = await reader.until((e) => e.object?.metadata?.name === 'a-sentinel', 10_000);
        const text = JSON.stringify(seen);
        assert.ok(!/B-MARKER|b-secret|globx1|acme01-/.test(text), text.slice(0, 500));
      }
    } finally { aw.close(); all.close(); }
  });
});

describe('adversarial: tenant base URLs', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
  });
  after(async () => { await h?.stop(); });

  it('A\'s credential under B\'s base URL (/tenants/<B id>/...) is answered as an unknown path', async () => {
    // A client on the bare gateway URL, so the test spells the base paths itself.
    const a = h.clientFor(await h.issue(h.idOf('acme'), 'admin'));
    const own = await a.get(`/tenants/${h.idOf('acme')}/api/v1/namespaces`);
    assert.equal(own.status, 200, own.text);
    const other = await a.get(`/tenants/${h.idOf('globex')}/api/v1/namespaces`);
    assert.equal(other.status, 404, other.text);
    assert.equal(other.body.message, 'the server could not find the requested resource');
    assert.doesNotMatch(other.text, /globx1|globex/);
  });
});
