// Client certificates over real TLS on loopback: who may finish a handshake, and
// what identity a verified certificate gives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCa } from '../../../src/pki/certificates.ts';
import { issueTenantUserCertificate } from '../../../src/tenants/credentials/issue-certificate.ts';
import { call } from './authn-server.ts';
import { BEFORE_REVOCATION, startFixture } from './fixture.ts';
import type { Fixture } from './fixture.ts';

/** A refused handshake surfaces as a closed connection, never an HTTP response. */
async function assertConnectionRefused(f: Fixture, cert: { certPem: string; keyPem: string }, tlsVersion?: 'TLSv1.2' | 'TLSv1.3'): Promise<void> {
  const handledBefore = f.server.handled.length;
  await assert.rejects(call(f.server, { cert: cert.certPem, key: cert.keyPem, ...(tlsVersion ? { tlsVersion } : {}) }), (err: NodeJS.ErrnoException) => {
    assert.ok(['ECONNRESET', 'EPIPE', 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA'].includes(err.code ?? '') || /socket hang up|disconnected/.test(err.message), `unexpected error ${err.code} ${err.message}`);
    return true;
  });
  assert.equal(f.server.handled.length, handledBefore, 'the HTTP handler must never see the request');
}

describe('gateway authn: client certificates (real TLS)', () => {
  let f: Fixture;
  before(async () => {
    f = await startFixture();
  });
  after(() => f.server.stop());

  it('a certificate from the tenant CA gives user, tenant and every group', async () => {
    const cert = await f.cert('acme01', 'alice', ['devs', 'system:masters-look-alike']);
    const reply = await call(f.server, { cert: cert.certPem, key: cert.keyPem });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.identity, {
      tenantId: 'acme01', user: 'alice', groups: ['devs', 'system:masters-look-alike'], via: 'certificate', issuedAt: cert.notBefore.toISOString(),
    });
  });

  it('a certificate with one group gives a one-element list (Node hands a lone O as a string)', async () => {
    const cert = await f.cert('acme01', 'bob', ['ops']);
    const reply = await call(f.server, { cert: cert.certPem, key: cert.keyPem });
    assert.deepEqual(reply.body.identity.groups, ['ops']);
  });

  it('adversarial: a certificate from another CA fails at the TLS handshake', async () => {
    const otherCa = await createCa('someone-else');
    const forged = await issueTenantUserCertificate({ ca: otherCa, tenantId: 'acme01', user: 'alice', groups: ['devs'], lifetimeMs: 3600_000 });
    await assertConnectionRefused(f, forged);
    assert.match(f.server.refused.at(-1)?.reason ?? '', /UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY|CERT_SIGNATURE_FAILURE|SELF_SIGNED/);
  });

  // OpenSSL reports a chain's last error: for another CA's certificate outside its dates that is
  // CERT_HAS_EXPIRED / CERT_NOT_YET_VALID, the verdict our own out-of-date certificates get (401).
  it('adversarial: an expired or not-yet-valid certificate from another CA also fails at the handshake', async () => {
    const otherCa = await createCa('someone-else');
    for (const notBefore of [new Date(Date.now() - 2 * 3600_000), new Date(Date.now() + 3600_000)]) {
      const forged = await issueTenantUserCertificate({ ca: otherCa, tenantId: 'acme01', user: 'alice', groups: ['devs'], lifetimeMs: 3600_000, notBefore });
      await assertConnectionRefused(f, forged);
      assert.match(f.server.refused.at(-1)?.reason ?? '', /CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/);
    }
  });

  for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
    it(`adversarial: a certificate from another CA is refused over ${version}; a tenant CA one is served`, async () => {
      const forged = await issueTenantUserCertificate({ ca: await createCa('someone-else'), tenantId: 'acme01', user: 'alice', groups: [], lifetimeMs: 3600_000 });
      await assertConnectionRefused(f, forged, version);
      const good = await f.cert('acme01', 'alice');
      assert.equal((await call(f.server, { cert: good.certPem, key: good.keyPem, tlsVersion: version })).status, 200);
    });
  }

  it('adversarial: a self-signed certificate claiming the tenant CA name fails at the handshake', async () => {
    const lookAlike = await createCa('warren-tenant-ca');
    await assertConnectionRefused(f, lookAlike);
  });

  // Ours but out of date: kube answers 401, which kubectl shows as "You must be logged in".
  it('adversarial: an expired certificate from the tenant CA is 401 Unauthorized', async () => {
    const expired = await f.cert('acme01', 'alice', [], { notBefore: new Date(Date.now() - 2 * 3600_000), lifetimeMs: 3600_000 });
    const reply = await call(f.server, { cert: expired.certPem, key: expired.keyPem });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.reason, 'Unauthorized');
  });

  it('adversarial: a not-yet-valid certificate from the tenant CA is 401 Unauthorized', async () => {
    const future = await f.cert('acme01', 'alice', [], { notBefore: new Date(Date.now() + 3600_000) });
    const reply = await call(f.server, { cert: future.certPem, key: future.keyPem });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.reason, 'Unauthorized');
  });

  it('no certificate still connects: /healthz, /livez, /readyz and /version answer without credentials', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
      const reply = await call(f.server, { path });
      assert.equal(reply.status, 200, path);
    }
  });

  it('no certificate and no token: 401 Unauthorized Status, as kube-apiserver', async () => {
    const reply = await call(f.server);
    assert.equal(reply.status, 401);
    assert.deepEqual(reply.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('adversarial: a certificate for an unknown tenant is 401, like any bad credential', async () => {
    const cert = await f.cert('nope01', 'alice');
    const reply = await call(f.server, { cert: cert.certPem, key: cert.keyPem });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.message, 'Unauthorized');
  });

  it('adversarial: a certificate issued before the tenant revoked its credentials is 401', async () => {
    const old = await f.cert('revk01', 'alice', [], { notBefore: BEFORE_REVOCATION });
    const reply = await call(f.server, { cert: old.certPem, key: old.keyPem });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.message, 'Unauthorized');
  });

  it('a certificate issued after the revocation works', async () => {
    const fresh = await f.cert('revk01', 'alice');
    const reply = await call(f.server, { cert: fresh.certPem, key: fresh.keyPem });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.identity.tenantId, 'revk01');
  });

  // OpenSSL judges the dates by glibc's coarse time(), a tick behind Date.now(): a certificate
  // used the moment it was issued, as a second starts, was CERT_NOT_YET_VALID (401) there.
  it('a certificate used the moment it is handed out, as a second starts, is served', async () => {
    for (let i = 0; i < 2; i++) {
      while (Date.now() % 1000 >= 20) await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const fresh = await f.cert('acme01', 'alice');
      const reply = await call(f.server, { cert: fresh.certPem, key: fresh.keyPem });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    }
  });

  it('a certificate of a Terminating tenant is 403 with a message in tenant terms', async () => {
    const cert = await f.cert('gone01', 'alice');
    const reply = await call(f.server, { cert: cert.certPem, key: cert.keyPem });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.reason, 'Forbidden');
    assert.equal(reply.body.message, 'forbidden: the tenant is being deleted');
    assert.doesNotMatch(JSON.stringify(reply.body), /gone01|leaving-co/);
  });

  it('a Suspended tenant authenticates (writes are refused later in the chain)', async () => {
    const cert = await f.cert('susp01', 'alice');
    const reply = await call(f.server, { cert: cert.certPem, key: cert.keyPem });
    assert.equal(reply.status, 200);
  });

  it('a valid certificate wins over a bearer token for another tenant', async () => {
    const cert = await f.cert('acme01', 'alice');
    const token = await f.token('susp01', 'mallory');
    const reply = await call(f.server, { cert: cert.certPem, key: cert.keyPem, token });
    assert.equal(reply.body.identity.user, 'alice');
    assert.equal(reply.body.identity.via, 'certificate');
  });
});
