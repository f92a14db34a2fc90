// Break 8: a deleted tenant's credentials worked again once its id was reused.
// Credentials are bound to the Tenant object (ADR 0025): by its uid when they
// carry one, else by being issued no earlier than the Tenant's creation.
import '../../../../src/pki/certificates.ts'; // first: reflect-metadata for @peculiar/x509
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as x509 from '@peculiar/x509';
import type { PeerCertificate } from 'node:tls';
import { bindingRefusal } from '../../../../src/gateway/authn/revocation.ts';
import { identityFromPeerCertificate } from '../../../../src/gateway/authn/client-certificate.ts';
import { AuthenticationError } from '../../../../src/gateway/authn/unauthorized.ts';
import { tenantUidsOfSubjectAltName, tenantUidUri } from '../../../../src/tenants/credentials/tenant-binding.ts';
import { issueTenantUserCertificate } from '../../../../src/tenants/credentials/issue-certificate.ts';
import { createCa } from '../../../../src/pki/certificates.ts';
import { createSigningKeySet, mintTenantToken } from '../../../../src/tenants/credentials/signing-keys.ts';
import { createTokenAuthenticator } from '../../../../src/gateway/authn/bearer-token.ts';
import { tenantInfoOf } from '../../../../src/tenants/tenant-info.ts';
import { planCredentials } from '../../../../src/controllers/onboarding/plan-credentials.ts';
import { readIssuedCredential } from '../../../../src/controllers/onboarding/reconcile-credentials.ts';
import { tenantUserKubeconfig } from '../../../../src/tenants/credentials/issue-certificate.ts';

const OLD = '5b8a1e0c-0000-4000-8000-000000000001';
const NEW = '5b8a1e0c-0000-4000-8000-000000000002';
const CREATED = new Date('2026-03-01T12:00:00.300Z');

describe('bindingRefusal', () => {
  const cases: Array<{ name: string; cred: { tenantUid?: string; issuedAt: Date }; tenant: { uid?: string; createdAt?: Date }; refused: boolean }> = [
    { name: 'same uid', cred: { tenantUid: NEW, issuedAt: new Date(CREATED.getTime() - 86_400_000) }, tenant: { uid: NEW, createdAt: CREATED }, refused: false },
    { name: 'adversarial: the old Tenant\'s uid', cred: { tenantUid: OLD, issuedAt: new Date(CREATED.getTime() + 5000) }, tenant: { uid: NEW, createdAt: CREATED }, refused: true },
    { name: 'adversarial: no uid, issued before the Tenant existed', cred: { issuedAt: new Date(CREATED.getTime() - 1000) }, tenant: { uid: NEW, createdAt: CREATED }, refused: true },
    { name: 'no uid, issued after the Tenant was created', cred: { issuedAt: new Date(CREATED.getTime() + 1000) }, tenant: { uid: NEW, createdAt: CREATED }, refused: false },
    { name: 'no uid, issued in the creation second', cred: { issuedAt: new Date(Math.floor(CREATED.getTime() / 1000) * 1000) }, tenant: { uid: NEW, createdAt: CREATED }, refused: false },
    { name: 'a directory without uids (static): the id decides', cred: { tenantUid: OLD, issuedAt: CREATED }, tenant: {}, refused: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(bindingRefusal(c.cred, c.tenant) !== undefined, c.refused));

  it('property: a credential naming a uid passes only for that uid', () => {
    fc.assert(fc.property(fc.uuid(), fc.uuid(), fc.date({ noInvalidDate: true }), (a, b, at) => {
      assert.equal(bindingRefusal({ tenantUid: a, issuedAt: at }, { uid: b, createdAt: at }) === undefined, a === b);
    }));
  });
});

describe('the binding in certificates', () => {
  const peer = (san?: string): PeerCertificate => ({
    subject: { CN: 'alice', OU: 'acme01' }, valid_from: 'Mar  1 11:00:00 2026 GMT', valid_to: 'Mar  1 13:00:00 2026 GMT',
    ext_key_usage: ['1.3.6.1.5.5.7.3.2'], ...(san !== undefined ? { subjectaltname: san } : {}),
  }) as unknown as PeerCertificate;
  const at = new Date('2026-03-01T12:00:00Z');

  it('reads the uid from the subjectAltName URI', () => {
    assert.equal(identityFromPeerCertificate(peer(`URI:${tenantUidUri(NEW)}`), at).tenantUid, NEW);
    assert.equal(identityFromPeerCertificate(peer('DNS:x.example.com'), at).tenantUid, undefined);
    assert.equal(identityFromPeerCertificate(peer(), at).tenantUid, undefined);
    assert.deepEqual(tenantUidsOfSubjectAltName(`DNS:a, URI:"${tenantUidUri(NEW)}"`), [NEW]);
  });

  it('adversarial: two uids, or a malformed one, are a 401', () => {
    for (const san of [`URI:${tenantUidUri(OLD)}, URI:${tenantUidUri(NEW)}`, 'URI:urn:warren:tenant-uid:a b/c']) {
      assert.throws(() => identityFromPeerCertificate(peer(san), at), AuthenticationError, san);
    }
  });

  it('a certificate issued with tenantUid carries it, and onboarding reads it back', async () => {
    const ca = await createCa('tenant-ca');
    const cert = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: 'alice', groups: ['devs'], lifetimeMs: 3600_000, tenantUid: NEW });
    const parsed = new x509.X509Certificate(cert.certPem);
    assert.deepEqual(parsed.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON(), [{ type: 'url', value: tenantUidUri(NEW) }]);
    const kubeconfig = tenantUserKubeconfig({ server: 'https://gw', caCertPem: ca.certPem, tenantName: 'acme', user: 'alice', cert: cert.certPem, key: cert.keyPem });
    assert.equal(readIssuedCredential(kubeconfig)?.tenantUid, NEW);
    const legacy = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: 'alice', groups: [], lifetimeMs: 3600_000 });
    assert.equal(new x509.X509Certificate(legacy.certPem).getExtension(x509.SubjectAlternativeNameExtension), null);
  });
});

describe('the binding in Warren JWTs', () => {
  it('carries warren.dev/tenant-uid; a malformed one is a 401', async () => {
    const keys = await createSigningKeySet();
    const tokens = createTokenAuthenticator({ warrenKeys: keys });
    const bound = await mintTenantToken({ keys, tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600, tenantUid: NEW });
    assert.equal((await tokens.authenticate(bound)).tenantUid, NEW);
    const legacy = await mintTenantToken({ keys, tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600 });
    assert.equal((await tokens.authenticate(legacy)).tenantUid, undefined);
    const forged = await mintTenantToken({ keys, tenantId: 'acme01', user: 'alice', groups: [], ttlSeconds: 600, tenantUid: 'not a uid!' });
    await assert.rejects(tokens.authenticate(forged), AuthenticationError);
  });
});

describe('TenantInfo and onboarding', () => {
  it('tenantInfoOf keeps the uid and the creation time', () => {
    const info = tenantInfoOf({ apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'acme', uid: NEW, creationTimestamp: CREATED.toISOString() }, spec: { id: 'acme01' } } as never);
    assert.equal(info?.uid, NEW);
    assert.equal(info?.createdAt?.getTime(), CREATED.getTime());
  });

  it('planCredentials re-issues certificates not bound to this Tenant (migration, or an earlier Tenant\'s)', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const base = { user: 'u', groups: [], notBefore: new Date(now.getTime() - 3600_000), notAfter: new Date(now.getTime() + 29 * 3600_000) };
    const plan = (tenantUid: string | undefined) => planCredentials({
      users: [{ name: 'u' }], existing: new Map([['u', { ...base, ...(tenantUid ? { tenantUid } : {}) }]]), lifetimeMs: 30 * 3600_000, now, tenantUid: NEW,
    }).issue.map((i) => i.why);
    assert.deepEqual(plan(undefined), ['rebind']);
    assert.deepEqual(plan(OLD), ['rebind']);
    assert.deepEqual(plan(NEW), []);
  });
});
