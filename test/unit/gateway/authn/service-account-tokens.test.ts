// ADR 0028: ServiceAccount tokens Warren issues with TokenRequest. They act
// as the ServiceAccount in its own tenant only; forged or altered claims are
// refused; a deleted (or re-made) ServiceAccount's tokens stop.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SignJWT, importJWK } from 'jose';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createTokenAuthenticator } from '../../../../src/gateway/authn/bearer-token.ts';
import { createAuthenticator } from '../../../../src/gateway/authn/authenticate.ts';
import { AuthenticationError } from '../../../../src/gateway/authn/unauthorized.ts';
import { createSigningKeySet, type SigningKeySet } from '../../../../src/tenants/credentials/signing-keys.ts';
import { answerTokenRequest, signServiceAccountToken } from '../../../../src/gateway/authn/token-request.ts';
import { createServiceAccountLookup } from '../../../../src/gateway/authn/service-account-lookup.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { TenantDirectory } from '../../../../src/tenants/tenant-directory.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const iat = NOW.getTime() / 1000;
const ISSUER = 'https://warren.local';

async function rejects401(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (err: unknown) => err instanceof AuthenticationError && err.code === 401);
}

function directory(tenants: Array<{ id: string; uid: string }>): TenantDirectory {
  const byId = new Map(tenants.map((t) => [t.id, { id: t.id, name: t.id, uid: t.uid, createdAt: new Date(0), phase: 'Ready' }]));
  return { byId: (id: string) => byId.get(id) } as unknown as TenantDirectory;
}

function requestWith(token: string): IncomingMessage {
  return { headers: { authorization: `Bearer ${token}` }, socket: {} } as unknown as IncomingMessage;
}

describe('ServiceAccount tokens at authentication', () => {
  let keys: SigningKeySet;
  before(async () => { keys = await createSigningKeySet(); });
  const tokens = () => createTokenAuthenticator({ warrenKeys: keys });
  const sa = { namespace: 'bots', name: 'bot', uid: 'sa-uid-1' };
  const mint = (over: Partial<Parameters<typeof signServiceAccountToken>[0]> = {}) =>
    signServiceAccountToken({ keys, issuer: ISSUER, audiences: ['warren'], tenantId: 'acme01', tenantUid: 'tenant-uid-a', sa, iat, exp: iat + 3600, ...over });

  it('authenticates as system:serviceaccount:<ns>:<name> with kube\'s ServiceAccount groups', async () => {
    const identity = await tokens().authenticate(await mint(), NOW);
    assert.equal(identity.user, 'system:serviceaccount:bots:bot');
    assert.deepEqual(identity.groups, ['system:serviceaccounts', 'system:serviceaccounts:bots']);
    assert.deepEqual(identity.serviceAccount, sa);
    assert.equal(identity.tenantId, 'acme01');
  });

  it('a token for another audience is not accepted at the gateway', async () => {
    await rejects401(tokens().authenticate(await mint({ audiences: ['vault'] }), NOW));
  });

  it('forged claims are refused: groups added, subject that does not match, no tenant uid, no claim for a ServiceAccount user', async () => {
    const key = await importJWK(keys.current.privateJwk, 'ES256');
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: keys.current.kid })
      .setIssuer(ISSUER).setAudience('warren').setIssuedAt(iat).setExpirationTime(iat + 600).sign(key);
    const base = { 'warren.dev/tenant': 'acme01', 'warren.dev/tenant-uid': 'tenant-uid-a', 'kubernetes.io': { namespace: 'bots', serviceaccount: { name: 'bot', uid: 'sa-uid-1' } } };
    // Groups in the token are ignored: a ServiceAccount has kube's groups only.
    const withGroups = await tokens().authenticate(await sign({ ...base, sub: 'system:serviceaccount:bots:bot', groups: ['system:masters'] }), NOW);
    assert.deepEqual(withGroups.groups, ['system:serviceaccounts', 'system:serviceaccounts:bots']);
    await rejects401(tokens().authenticate(await sign({ ...base, sub: 'system:serviceaccount:other:bot' }), NOW));
    await rejects401(tokens().authenticate(await sign({ ...base, sub: 'alice' }), NOW));
    await rejects401(tokens().authenticate(await sign({ ...base, 'warren.dev/tenant-uid': undefined, sub: 'system:serviceaccount:bots:bot' }), NOW));
    await rejects401(tokens().authenticate(await sign({ 'warren.dev/tenant': 'acme01', sub: 'system:serviceaccount:bots:bot' }), NOW));
    await rejects401(tokens().authenticate(await sign({ ...base, 'kubernetes.io': { namespace: 'Bad_NS', serviceaccount: { name: 'bot', uid: 'x' } }, sub: 'system:serviceaccount:Bad_NS:bot' }), NOW));
  });

  it('property: a token issued in tenant A never authenticates as tenant B, and tampering breaks it', async () => {
    const id = fc.stringMatching(/^[a-z][a-z0-9]{5}$/);
    await fc.assert(fc.asyncProperty(id, id, fc.stringMatching(/^[a-z0-9]{1,12}$/), async (a, b, ns) => {
      fc.pre(a !== b);
      const uidOf = async (tenantId: string, namespace: string, name: string) => (tenantId === a && namespace === ns && name === 'bot' ? 'sa-uid-1' : undefined);
      const authenticate = createAuthenticator({
        tenants: directory([{ id: a, uid: 'uid-a' }, { id: b, uid: 'uid-b' }]), tokens: tokens(), serviceAccounts: { cachedUidOf: uidOf }, now: () => NOW,
      });
      const token = await signServiceAccountToken({ keys, issuer: ISSUER, audiences: ['warren'], tenantId: a, tenantUid: 'uid-a', sa: { namespace: ns, name: 'bot', uid: 'sa-uid-1' }, iat, exp: iat + 3600 });
      const identity = await authenticate(requestWith(token));
      assert.equal(identity.tenantId, a);
      // Re-pointed at B (payload edited, signature kept): refused.
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>;
      claims['warren.dev/tenant'] = b;
      claims['warren.dev/tenant-uid'] = 'uid-b';
      await rejects401(authenticate(requestWith(`${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`)));
      // Validly signed for B's id but with A's Tenant uid (as a confused issuer might): refused by the binding.
      const crossed = await signServiceAccountToken({ keys, issuer: ISSUER, audiences: ['warren'], tenantId: b, tenantUid: 'uid-a', sa: { namespace: ns, name: 'bot', uid: 'sa-uid-1' }, iat, exp: iat + 3600 });
      await rejects401(authenticate(requestWith(crossed)));
    }), { numRuns: 25 });
  });

  it('a deleted or re-made ServiceAccount (another uid) refuses the token', async () => {
    let current: string | undefined = 'sa-uid-1';
    const authenticate = createAuthenticator({
      tenants: directory([{ id: 'acme01', uid: 'tenant-uid-a' }]), tokens: tokens(), serviceAccounts: { cachedUidOf: async () => current }, now: () => NOW,
    });
    const token = await mint();
    assert.equal((await authenticate(requestWith(token))).user, 'system:serviceaccount:bots:bot');
    current = undefined;
    await rejects401(authenticate(requestWith(token)));
    current = 'sa-uid-2';
    await rejects401(authenticate(requestWith(token)));
    // No lookup configured: refused, never waved through.
    await rejects401(createAuthenticator({ tenants: directory([{ id: 'acme01', uid: 'tenant-uid-a' }]), tokens: tokens(), now: () => NOW })(requestWith(token)));
  });

  it('the lookup caches briefly and reads the upstream ServiceAccount under the tenant prefix', async () => {
    const paths: string[] = [];
    let clock = 0;
    const lookup = createServiceAccountLookup({ request: async (_m: string, path: string) => { paths.push(path); return { status: 200, body: { metadata: { uid: 'u' } }, headers: {} } as never; } }, () => clock);
    assert.equal(await lookup.cachedUidOf('acme01', 'bots', 'bot'), 'u');
    assert.equal(await lookup.cachedUidOf('acme01', 'bots', 'bot'), 'u');
    clock = 6_000;
    await lookup.cachedUidOf('acme01', 'bots', 'bot');
    assert.deepEqual(paths, ['/api/v1/namespaces/acme01-bots/serviceaccounts/bot', '/api/v1/namespaces/acme01-bots/serviceaccounts/bot']);
  });
});

describe('TokenRequest answers', () => {
  let keys: SigningKeySet;
  before(async () => { keys = await createSigningKeySet(); });
  const post = (body: unknown): IncomingMessage => {
    const req = Readable.from([Buffer.from(JSON.stringify(body))]) as unknown as IncomingMessage;
    Object.assign(req, { method: 'POST', headers: { 'content-type': 'application/json' } });
    return req;
  };
  const target = { tenantId: 'acme01', tenantUid: 'tenant-uid-a', namespace: 'bots', name: 'bot' };
  const options = (uid: string | undefined) => ({ keys: () => keys, issuer: ISSUER, audience: 'warren', serviceAccounts: { uidOf: async () => uid }, now: () => NOW });
  const invalid422 = (pattern: RegExp) => (err: unknown) => err instanceof ApiError && err.code === 422 && pattern.test(err.message);

  it('defaults to one hour and the gateway audience; caps at a day', async () => {
    const out = await answerTokenRequest(post({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }), target, options('u'));
    assert.deepEqual(out.spec, { audiences: ['warren'], expirationSeconds: 3600, boundObjectRef: null });
    const capped = await answerTokenRequest(post({ spec: { expirationSeconds: 10 * 86400 } }), target, options('u'));
    assert.equal((capped.spec as { expirationSeconds: number }).expirationSeconds, 86400);
    assert.equal((capped.status as { expirationTimestamp: string }).expirationTimestamp, '2026-03-02T12:00:00Z');
  });

  it('refuses like kube: under 10 minutes, a body naming another ServiceAccount, a boundObjectRef; 404 for a missing ServiceAccount', async () => {
    await assert.rejects(answerTokenRequest(post({ spec: { expirationSeconds: 599 } }), target, options('u')), invalid422(/less than 10 minutes/));
    await assert.rejects(answerTokenRequest(post({ metadata: { name: 'other' }, spec: {} }), target, options('u')), invalid422(/must match the service account name/));
    await assert.rejects(answerTokenRequest(post({ spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p' } } }), target, options('u')), invalid422(/boundObjectRef/));
    await assert.rejects(answerTokenRequest(post({ spec: {} }), target, options(undefined)), (err: unknown) => err instanceof ApiError && err.code === 404 && /serviceaccounts "bot" not found/.test(err.message));
  });
});
