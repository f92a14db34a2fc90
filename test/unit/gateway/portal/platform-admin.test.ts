// Who is a platform admin, and until when: the console ends a live stream at the credential's expiry.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { mintPlatformAdminToken, platformAdminOf, platformAdminSession } from '../../../../src/gateway/portal/platform-admin.ts';
import { createSigningKeySet } from '../../../../src/tenants/credentials/signing-keys.ts';

const request = (parts: { authorization?: string; cert?: Record<string, unknown> }): IncomingMessage => ({
  headers: parts.authorization ? { authorization: parts.authorization } : {},
  socket: { authorized: parts.cert !== undefined, getPeerCertificate: () => parts.cert },
}) as unknown as IncomingMessage;

describe('platform admin sessions', () => {
  it('a token gives its subject and its exp', async () => {
    const keys = await createSigningKeySet();
    const before = Math.floor(Date.now() / 1000);
    const token = await mintPlatformAdminToken(keys, 'ops', 600);
    const session = await platformAdminSession(request({ authorization: `Bearer ${token}` }), keys);
    assert.equal(session.name, 'ops');
    assert.ok(session.expiresAt !== undefined && session.expiresAt >= (before + 600) * 1000 && session.expiresAt <= (before + 601) * 1000, String(session.expiresAt));
    assert.equal(await platformAdminOf(request({ authorization: `Bearer ${token}` }), keys), 'ops');
  });

  it('a platform-admin certificate gives its CN and its notAfter', async () => {
    const keys = await createSigningKeySet();
    const cert = { subject: { O: 'warren:platform-admins', CN: 'portal' }, valid_to: 'Nov 26 18:00:00 2027 GMT' };
    assert.deepEqual(await platformAdminSession(request({ cert }), keys), { name: 'portal', expiresAt: Date.parse('2027-11-26T18:00:00Z') });
  });

  it('a token from another key, or a tenant certificate (an OU), is no admin', async () => {
    const keys = await createSigningKeySet();
    const forged = await mintPlatformAdminToken(await createSigningKeySet(), 'mallory', 600);
    await assert.rejects(platformAdminSession(request({ authorization: `Bearer ${forged}` }), keys), { reason: 'Unauthorized' });
    const tenantCert = { subject: { O: 'warren:platform-admins', OU: 'abc123', CN: 'alice' }, valid_to: 'Nov 26 18:00:00 2027 GMT' };
    await assert.rejects(platformAdminSession(request({ cert: tenantCert }), keys), { reason: 'Unauthorized' });
  });
});
