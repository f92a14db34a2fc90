// Claim and configuration rules of the token authenticator, called directly (the
// TLS path is covered in test/integration/gateway-authn).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, importJWK } from 'jose';
import { createTokenAuthenticator } from '../../../../src/gateway/authn/bearer-token.ts';
import type { OidcIssuerConfig } from '../../../../src/gateway/authn/bearer-token.ts';
import { AuthenticationError } from '../../../../src/gateway/authn/unauthorized.ts';
import { createSigningKeySet, mintTenantToken, rotateSigningKeys } from '../../../../src/tenants/credentials/signing-keys.ts';
import type { SigningKeySet } from '../../../../src/tenants/credentials/signing-keys.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;

async function rejects401(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof AuthenticationError, String(err));
    assert.equal(err.code, 401);
    return true;
  });
}

describe('createTokenAuthenticator: claims', () => {
  let keys: SigningKeySet;
  before(async () => {
    keys = await createSigningKeySet();
  });

  /** A Warren-signed token with arbitrary claims, so each claim rule can be broken alone. */
  async function signed(claims: Record<string, unknown>, iat: number | null): Promise<string> {
    const jwt = new SignJWT({ 'warren.dev/tenant': 'acme01', sub: 'alice', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: keys.current.kid }).setIssuer('https://warren.local').setAudience('warren').setExpirationTime(nowSeconds + 600);
    if (iat !== null) jwt.setIssuedAt(iat);
    return jwt.sign(await importJWK(keys.current.privateJwk, 'ES256'));
  }

  it('groups given as one string become a one-element list', async () => {
    const identity = await createTokenAuthenticator({ warrenKeys: keys }).authenticate(await signed({ groups: 'devs' }, nowSeconds), NOW);
    assert.deepEqual(identity.groups, ['devs']);
  });

  it('no groups claim gives no groups', async () => {
    const identity = await createTokenAuthenticator({ warrenKeys: keys }).authenticate(await signed({}, nowSeconds), NOW);
    assert.deepEqual(identity.groups, []);
  });

  const refused: { name: string; claims: Record<string, unknown>; iat?: number | null }[] = [
    { name: 'adversarial: groups that are not strings', claims: { groups: ['devs', 7] } },
    { name: 'adversarial: no tenant claim', claims: { 'warren.dev/tenant': undefined } },
    { name: 'adversarial: tenant claim that is not a tenant id', claims: { 'warren.dev/tenant': 'acme01-x' } },
    { name: 'adversarial: tenant claim that is a list', claims: { 'warren.dev/tenant': ['acme01'] } },
    { name: 'adversarial: empty subject', claims: { sub: '' } },
    { name: 'adversarial: no iat (could never be revoked)', claims: {}, iat: null },
    { name: 'adversarial: iat beyond the clock skew in the future', claims: {}, iat: nowSeconds + 120 },
  ];
  for (const c of refused) {
    it(`${c.name} → 401`, async () => {
      const token = await signed(c.claims, c.iat === undefined ? nowSeconds : c.iat);
      await rejects401(createTokenAuthenticator({ warrenKeys: keys }).authenticate(token, NOW));
    });
  }

  it('rotation: a token of the previous key still verifies; once the key is dropped it does not', async () => {
    let current = keys;
    const tokens = createTokenAuthenticator({ warrenKeys: () => current });
    const old = await mintTenantToken({ keys, tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600, now: NOW });
    current = await rotateSigningKeys(keys, 1);
    assert.equal((await tokens.authenticate(old, NOW)).user, 'alice');
    const fresh = await mintTenantToken({ keys: current, tenantId: 'acme01', user: 'bob', groups: [], ttlSeconds: 600, now: NOW });
    assert.equal((await tokens.authenticate(fresh, NOW)).user, 'bob');
    current = await rotateSigningKeys(current, 0);
    await rejects401(tokens.authenticate(old, NOW));
  });
});

describe('createTokenAuthenticator: configuration refused at start-up', () => {
  const base: OidcIssuerConfig = { issuer: 'https://idp.example', audience: 'warren', jwks: { keys: [] } };
  const cases: { name: string; config: OidcIssuerConfig; message: RegExp }[] = [
    { name: "adversarial: alg 'none' configured", config: { ...base, algorithms: ['none'] }, message: /not allowed/ },
    { name: 'adversarial: HS256 configured (shared secret from public keys)', config: { ...base, algorithms: ['HS256'] }, message: /not allowed/ },
    { name: 'empty algorithm list', config: { ...base, algorithms: [] }, message: /no algorithms/ },
    { name: 'both jwks and jwksUri', config: { ...base, jwksUri: 'https://idp.example/keys' }, message: /exactly one/ },
    { name: 'neither jwks nor jwksUri', config: { issuer: base.issuer, audience: 'warren' }, message: /exactly one/ },
    { name: 'adversarial: a plain-http jwksUri', config: { issuer: base.issuer, audience: 'warren', jwksUri: 'http://idp.example/keys' }, message: /https/ },
    { name: "adversarial: an external issuer claiming Warren's issuer", config: { ...base, issuer: 'https://warren.local' }, message: /configured twice/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const keys = await createSigningKeySet();
      assert.throws(() => createTokenAuthenticator({ warrenKeys: keys, oidcIssuers: [c.config] }), c.message);
    });
  }
});
