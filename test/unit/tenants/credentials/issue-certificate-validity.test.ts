// A tenant user certificate carries its issue instant as notBefore, not backdated
// (revocation compares it). A verifier whose clock lags ours (OpenSSL reads glibc's
// coarse time(), a kernel tick behind Date.now()) would see a just-issued certificate
// as not yet valid: the gateway answered 401 to one used at once (session 10's CI
// flake). The issuer hands a certificate out only once it is valid for such a verifier.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCa, type IssuedCertificate } from '../../../../src/pki/certificates.ts';
import { issueTenantUserCertificate, VERIFIER_CLOCK_LAG_MS } from '../../../../src/tenants/credentials/issue-certificate.ts';

/** Resolves in the first milliseconds of a whole second (by Date.now()), where the lag bites. */
async function justAfterASecondStarts(): Promise<void> {
  for (;;) {
    const into = Date.now() % 1000;
    if (into < 20) return;
    await new Promise((resolve) => setTimeout(resolve, 1000 - into));
  }
}

describe('tenant user certificate: valid for a lagging verifier when handed out', () => {
  let ca: IssuedCertificate;
  before(async () => {
    ca = await createCa('warren-tenant-ca');
  });

  it('a certificate issued as a second starts is returned only once its notBefore is VERIFIER_CLOCK_LAG_MS past', async () => {
    for (let i = 0; i < 3; i++) {
      await justAfterASecondStarts();
      const issued = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: 'alice', groups: [], lifetimeMs: 3600_000 });
      const age = Date.now() - issued.notBefore.getTime();
      assert.ok(age >= VERIFIER_CLOCK_LAG_MS, `handed out ${age} ms into its validity, before a verifier ${VERIFIER_CLOCK_LAG_MS} ms behind could accept it`);
    }
  });

  it('the wait is the issue instant, not a backdating: notBefore is still the second the certificate was asked for', async () => {
    await justAfterASecondStarts();
    const asked = Math.floor(Date.now() / 1000) * 1000;
    const issued = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: 'alice', groups: [], lifetimeMs: 3600_000 });
    assert.ok(issued.notBefore.getTime() >= asked, `notBefore ${issued.notBefore.toISOString()} is before the second it was asked in`);
  });

  it('a notBefore the caller sets in the future is not waited for (a test\'s not-yet-valid certificate)', async () => {
    const notBefore = new Date(Date.now() + 3600_000);
    const issued = await issueTenantUserCertificate({ ca, tenantId: 'acme01', user: 'alice', groups: [], lifetimeMs: 3600_000, notBefore });
    assert.ok(Date.now() < issued.notBefore.getTime(), 'returned only after its notBefore, an hour ahead');
  });
});
