// The identity of a client certificate is parsed once per TLS connection (authenticate.ts).
// Isolation rule: what may change while a connection stays open (the tenant revokes its
// credentials, is being deleted, is deleted, is made again under the same id) takes effect on
// the very next request over that same kept-alive connection, never at the next handshake.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { createCa, type IssuedCertificate } from '../../../src/pki/certificates.ts';
import { createTokenAuthenticator } from '../../../src/gateway/authn/bearer-token.ts';
import { issueTenantUserCertificate, type TenantUserCertificate } from '../../../src/tenants/credentials/issue-certificate.ts';
import { createSigningKeySet } from '../../../src/tenants/credentials/signing-keys.ts';
import { staticTenantDirectory, type TenantInfo } from '../../../src/tenants/tenant-directory.ts';
import { startAuthnServer, type AuthnServer } from './authn-server.ts';

interface Answer { status: number; port: number; body: { message?: string } }

describe('gateway authn: a connection\'s cached certificate identity follows its tenant at once', () => {
  const tenants: TenantInfo[] = [];
  let server: AuthnServer;
  let tenantCa: IssuedCertificate;
  let cert: TenantUserCertificate;
  let agent: Agent;

  const ask = (): Promise<Answer> => new Promise((resolve, reject) => {
    const req = request(`${server.url}/api`, { ca: server.servingCa.certPem, cert: cert.certPem, key: cert.keyPem, agent }, (res: IncomingMessage) => {
      const port = res.socket.localPort ?? 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, port, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const setTenant = (next: TenantInfo | undefined): void => {
    tenants.splice(0, tenants.length, ...(next ? [next] : []));
  };
  const ready: TenantInfo = { id: 'acme01', name: 'acme', phase: 'Ready', suspended: false };

  before(async () => {
    tenantCa = await createCa('warren-tenant-ca');
    const keys = await createSigningKeySet();
    setTenant(ready);
    server = await startAuthnServer({ tenantCaPem: tenantCa.certPem, tenants: staticTenantDirectory(tenants), tokens: createTokenAuthenticator({ warrenKeys: keys, oidcIssuers: [] }), keys });
    cert = await issueTenantUserCertificate({ ca: tenantCa, tenantId: 'acme01', user: 'alice', groups: ['devs'], lifetimeMs: 3600_000 });
    // One socket, kept alive: every request below rides the connection whose identity is cached.
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  after(async () => {
    agent?.destroy();
    await server?.stop();
  });

  it('adversarial: revocation, deletion in progress, deletion and a new tenant under the same id, each on the next request', async () => {
    const first = await ask();
    assert.equal(first.status, 200);
    const sameConnection = (a: Answer): void => assert.equal(a.port, first.port, 'the request must reuse the first connection');

    setTenant({ ...ready, credentialsNotBefore: new Date(Date.now() + 1_000) });
    const revoked = await ask();
    sameConnection(revoked);
    assert.equal(revoked.status, 401, 'a revoked certificate is refused on a connection that was already served');
    assert.equal(revoked.body.message, 'Unauthorized');

    setTenant(ready);
    const again = await ask();
    sameConnection(again);
    assert.equal(again.status, 200, 'the revocation point, not a cached verdict, decides');

    setTenant({ ...ready, phase: 'Terminating' });
    const leaving = await ask();
    sameConnection(leaving);
    assert.equal(leaving.status, 403);

    setTenant(undefined);
    const gone = await ask();
    sameConnection(gone);
    assert.equal(gone.status, 401, 'a deleted tenant\'s connection is refused');

    // The same id made again: a certificate issued before the new Tenant (its revocation point is its birth) is refused.
    setTenant({ ...ready, uid: '5f0c6b9e-0000-4000-8000-000000000001', credentialsNotBefore: new Date(Date.now() + 1_000) });
    const reborn = await ask();
    sameConnection(reborn);
    assert.equal(reborn.status, 401);
  });
});
