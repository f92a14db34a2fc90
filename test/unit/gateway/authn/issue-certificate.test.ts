import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { parse } from 'yaml';
import { createCa } from '../../../../src/pki/certificates.ts';
import type { IssuedCertificate } from '../../../../src/pki/certificates.ts';
import { identityFromPeerCertificate } from '../../../../src/gateway/authn/client-certificate.ts';
import { issueTenantUserCertificate, tenantUserKubeconfig } from '../../../../src/tenants/credentials/issue-certificate.ts';

describe('issueTenantUserCertificate', () => {
  let ca: IssuedCertificate;
  before(async () => {
    ca = await createCa('warren-tenant-ca');
  });

  const cases = [
    { name: 'user, tenant and groups in order', user: 'alice', groups: ['devs', 'ops'] },
    { name: 'no groups', user: 'bob', groups: [] },
    { name: 'one group', user: 'bob', groups: ['ops'] },
    { name: 'adversarial: DN-special characters in the user stay data, never a second OU', user: 'eve, OU=other1', groups: ['a+b', 'x=y'] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const issued = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: c.user, groups: c.groups, lifetimeMs: 3600_000 });
      const cert = new X509Certificate(issued.certPem);
      // Read back exactly as the gateway reads a peer certificate.
      const identity = identityFromPeerCertificate(cert.toLegacyObject());
      assert.deepEqual([identity.tenantId, identity.user, identity.groups], ['acme01', c.user, c.groups]);
      assert.ok(cert.verify(new X509Certificate(ca.certPem).publicKey), 'signed by the tenant CA');
    });
  }

  it('validity starts at the issue instant, floored to the second, and lasts lifetimeMs', async () => {
    const notBefore = new Date('2026-03-01T12:00:00.750Z');
    const issued = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: 'alice', groups: [], lifetimeMs: 600_000, notBefore });
    assert.equal(issued.notBefore.toISOString(), '2026-03-01T12:00:00.000Z');
    const cert = new X509Certificate(issued.certPem);
    assert.equal(new Date(cert.validFrom).toISOString(), '2026-03-01T12:00:00.000Z');
    assert.equal(new Date(cert.validTo).toISOString(), '2026-03-01T12:10:00.000Z');
  });

  it('refuses a malformed tenant id and an empty user', async () => {
    await assert.rejects(issueTenantUserCertificate({ ca, tenantId: 'acme', user: 'alice', groups: [], lifetimeMs: 1000 }), /invalid tenant id/);
    await assert.rejects(issueTenantUserCertificate({ ca, tenantId: 'acme01', user: '', groups: [], lifetimeMs: 1000 }), /user name/);
  });
});

describe('tenantUserKubeconfig', () => {
  it('names cluster and context after the tenant and embeds the serving CA and the client pair', () => {
    const yaml = tenantUserKubeconfig({ server: 'https://127.0.0.1:6443', caCertPem: 'SERVING-CA', tenantName: 'acme', user: 'alice', cert: 'CERT', key: 'KEY', namespace: 'dev' });
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    assert.deepEqual(parse(yaml), {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'acme', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64('SERVING-CA') } }],
      users: [{ name: 'alice@acme', user: { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') } }],
      contexts: [{ name: 'acme', context: { cluster: 'acme', user: 'alice@acme', namespace: 'dev' } }],
      'current-context': 'acme',
      preferences: {},
    });
  });
});
