// Bearer JWTs over real TLS on loopback, with no client certificate: Warren's own
// tokens, the forgeries a caller could try, and external OIDC issuers (inline
// JWKS, and a JWKS URL served by a second loopback HTTPS server).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import type { JWK } from 'jose';
import { createCa, issueCertificate } from '../../../src/pki/certificates.ts';
import { createSigningKeySet, mintTenantToken, publicJwks } from '../../../src/tenants/credentials/signing-keys.ts';
import { call } from './authn-server.ts';
import { BEFORE_REVOCATION, startFixture } from './fixture.ts';
import type { Fixture } from './fixture.ts';

const WARREN = 'https://warren.local';
const PORTAL = 'https://portal.example';
const REMOTE = 'https://idp.example';

async function externalKey(alg: 'RS256' | 'ES256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, alg, kid, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } as JWK };
}

type ExternalKey = Awaited<ReturnType<typeof externalKey>>;

function externalToken(key: ExternalKey, issuer: string, claims: Record<string, unknown>, audience: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid }).setIssuer(issuer).setAudience(audience)
    .setIssuedAt().setExpirationTime('1h').sign(key.privateKey);
}

async function expect401(f: Fixture, token: string): Promise<void> {
  const reply = await call(f.server, { token });
  assert.equal(reply.status, 401, JSON.stringify(reply.body));
  assert.equal(reply.body.message, 'Unauthorized');
  assert.equal(reply.body.reason, 'Unauthorized');
}

describe('gateway authn: bearer tokens (real TLS, no client certificate)', () => {
  let f: Fixture;
  let portalKey: ExternalKey;
  let remoteKey: ExternalKey;
  let jwksHits = 0;
  let stopJwks: () => void;

  before(async () => {
    portalKey = await externalKey('RS256', 'portal-1');
    remoteKey = await externalKey('ES256', 'idp-1');
    const ca = await createCa('idp-ca');
    const serving = await issueCertificate({ ca, commonName: 'idp', ips: ['127.0.0.1'], lifetimeMs: 3600_000 });
    const jwks = createServer({ cert: serving.certPem, key: serving.keyPem }, (_req, res) => {
      jwksHits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [remoteKey.publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    stopJwks = () => {
      jwks.closeAllConnections();
      jwks.close();
    };
    f = await startFixture([
      { issuer: PORTAL, audience: 'warren-portal', jwks: { keys: [portalKey.publicJwk] }, tenantClaim: 'org', usernameClaim: 'email', groupsClaim: 'roles', algorithms: ['RS256'] },
      { issuer: REMOTE, audience: 'warren', jwksUri: `https://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`, jwksCaPem: ca.certPem },
    ]);
  });
  after(async () => {
    stopJwks();
    await f.server.stop();
  });

  it('a Warren token gives its tenant, user and groups, issuedAt = iat', async () => {
    const iat = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const token = await f.token('acme01', 'alice', { now: iat, groups: ['devs', 'ops'] });
    const reply = await call(f.server, { token });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.identity, { tenantId: 'acme01', user: 'alice', groups: ['devs', 'ops'], via: 'token', issuedAt: iat.toISOString() });
  });

  it('the bearer scheme is case-insensitive, as kube', async () => {
    const token = await f.token('acme01', 'alice');
    const reply = await call(f.server, { headers: { authorization: `bearer ${token}` } });
    assert.equal(reply.status, 200);
  });

  it('GET /openid/v1/jwks needs no credentials, has no private parts, and verifies a Warren token', async () => {
    const reply = await call(f.server, { path: '/openid/v1/jwks' });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.keys.length, 1);
    assert.ok(reply.body.keys.every((k: JWK) => k.d === undefined && typeof k.kid === 'string' && k.alg === 'ES256'));
    const token = await f.token('acme01', 'alice');
    const { payload } = await jwtVerify(token, createLocalJWKSet(reply.body), { issuer: WARREN, audience: 'warren' });
    assert.equal(payload['warren.dev/tenant'], 'acme01');
  });

  it('adversarial: alg none is 401', async () => {
    const unsigned = new UnsecuredJWT({ 'warren.dev/tenant': 'acme01', groups: ['system:masters'] })
      .setIssuer(WARREN).setAudience('warren').setSubject('admin').setIssuedAt().setExpirationTime('1h').encode();
    await expect401(f, unsigned);
  });

  it('adversarial: a token signed by another ES256 key is 401', async () => {
    await expect401(f, await mintTenantToken({ keys: await createSigningKeySet(), tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600 }));
  });

  it("adversarial: a token signed by another key that claims Warren's kid is 401", async () => {
    const other = await createSigningKeySet();
    const spoofed = { current: { ...other.current, kid: f.keys.current.kid }, previous: [] };
    await expect401(f, await mintTenantToken({ keys: spoofed, tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600 }));
  });

  it("adversarial: HS256 keyed with Warren's public JWK (algorithm confusion) is 401", async () => {
    const secret = new TextEncoder().encode(JSON.stringify(publicJwks(f.keys).keys[0]));
    const token = await new SignJWT({ 'warren.dev/tenant': 'acme01' }).setProtectedHeader({ alg: 'HS256', kid: f.keys.current.kid })
      .setIssuer(WARREN).setAudience('warren').setSubject('alice').setIssuedAt().setExpirationTime('1h').sign(secret);
    await expect401(f, token);
  });

  it('adversarial: a Warren token whose tenant claim was edited after signing is 401', async () => {
    const [head, body, sig] = (await f.token('acme01', 'alice')).split('.');
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    payload['warren.dev/tenant'] = 'susp01';
    await expect401(f, `${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`);
  });

  it('adversarial: wrong audience is 401', async () => {
    await expect401(f, await mintTenantToken({ keys: f.keys, audience: 'kubernetes', tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600 }));
  });

  it('adversarial: an untrusted issuer is 401, even signed with Warren\'s key', async () => {
    await expect401(f, await mintTenantToken({ keys: f.keys, issuer: 'https://evil.example', tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600 }));
  });

  it('adversarial: an expired token is 401', async () => {
    await expect401(f, await f.token('acme01', 'alice', { now: new Date(Date.now() - 2 * 3600_000), ttlSeconds: 3600 }));
  });

  it('a token expired 10 s ago is still accepted (30 s clock skew), one expired 60 s ago is not', async () => {
    const ok = await f.token('acme01', 'alice', { now: new Date(Date.now() - 610_000), ttlSeconds: 600 });
    assert.equal((await call(f.server, { token: ok })).status, 200);
    await expect401(f, await f.token('acme01', 'alice', { now: new Date(Date.now() - 660_000), ttlSeconds: 600 }));
  });

  it('adversarial: a token that is not a JWT is 401', async () => {
    await expect401(f, 'not-a-jwt');
  });

  it('adversarial: a token for an unknown tenant is 401, indistinguishable from a bad token', async () => {
    await expect401(f, await f.token('nope01', 'alice'));
  });

  it('adversarial: a token issued before the revocation is 401; one issued after works', async () => {
    await expect401(f, await f.token('revk01', 'alice', { now: BEFORE_REVOCATION }));
    assert.equal((await call(f.server, { token: await f.token('revk01', 'alice') })).status, 200);
  });

  it('a token of a Terminating tenant is 403 "the tenant is being deleted"', async () => {
    const reply = await call(f.server, { token: await f.token('gone01', 'alice') });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.message, 'forbidden: the tenant is being deleted');
  });

  it('adversarial: forged Impersonate-* and X-Remote-* headers are gone before authentication', async () => {
    const token = await f.token('acme01', 'alice', { groups: ['devs'] });
    const reply = await call(f.server, {
      token,
      headers: {
        'Impersonate-User': 'system:admin', 'Impersonate-Group': 'system:masters', 'Impersonate-Uid': '0',
        'Impersonate-Extra-Scopes': 'all', 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters',
        'X-Remote-Extra-Tenant': 'susp01', 'X-Keep-Me': 'yes',
      },
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.identity, { ...reply.body.identity, tenantId: 'acme01', user: 'alice', groups: ['devs'] });
    const names = Object.keys(reply.body.headers);
    assert.deepEqual(names.filter((n) => /^(impersonate-|x-remote-)/i.test(n)), []);
    assert.deepEqual((reply.body.rawHeaders as string[]).filter((n) => /^(impersonate-|x-remote-)/i.test(n)), []);
    assert.equal(reply.body.headers['x-keep-me'], 'yes');
  });

  it('adversarial: forged impersonation headers without any credential are still 401', async () => {
    const reply = await call(f.server, { headers: { 'Impersonate-User': 'alice', 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' } });
    assert.equal(reply.status, 401);
  });

  it('an external issuer with an inline JWKS: configured claims give the identity', async () => {
    const token = await externalToken(portalKey, PORTAL, { org: 'acme01', email: 'carol@acme.example', roles: ['viewers'] }, 'warren-portal');
    const reply = await call(f.server, { token });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.identity.user, 'carol@acme.example');
    assert.deepEqual(reply.body.identity.groups, ['viewers']);
    assert.equal(reply.body.identity.tenantId, 'acme01');
  });

  it('adversarial: an external token for another audience is 401', async () => {
    await expect401(f, await externalToken(portalKey, PORTAL, { org: 'acme01', email: 'carol@acme.example' }, 'warren'));
  });

  it('adversarial: an external token without the tenant claim is 401', async () => {
    await expect401(f, await externalToken(portalKey, PORTAL, { email: 'carol@acme.example' }, 'warren-portal'));
  });

  it('adversarial: an external issuer cannot name a system: user', async () => {
    await expect401(f, await externalToken(portalKey, PORTAL, { org: 'acme01', email: 'system:admin' }, 'warren-portal'));
  });

  it("adversarial: a token claiming the portal issuer but signed by the other issuer's key is 401", async () => {
    const crossSigned = { ...remoteKey, privateKey: remoteKey.privateKey, kid: 'portal-1' };
    await expect401(f, await externalToken(crossSigned, PORTAL, { org: 'acme01', email: 'carol@acme.example' }, 'warren-portal'));
  });

  it('an external issuer with a jwksUri: keys are fetched over HTTPS with its CA', async () => {
    const token = await externalToken(remoteKey, REMOTE, { 'warren.dev/tenant': 'acme01', sub: 'dave', groups: 'admins' }, 'warren');
    const reply = await call(f.server, { token });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.identity.groups, ['admins']);
    assert.equal(reply.body.identity.user, 'dave');
    assert.ok(jwksHits >= 1);
  });

  it('adversarial: a jwksUri issuer token signed by an unpublished key is 401', async () => {
    const rogue = await externalKey('ES256', 'idp-1');
    await expect401(f, await externalToken(rogue, REMOTE, { 'warren.dev/tenant': 'acme01', sub: 'dave' }, 'warren'));
  });
});
