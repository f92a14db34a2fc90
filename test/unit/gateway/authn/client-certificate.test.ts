import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PeerCertificate } from 'node:tls';
import { identityFromPeerCertificate } from '../../../../src/gateway/authn/client-certificate.ts';
import { AuthenticationError } from '../../../../src/gateway/authn/unauthorized.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

function peer(subject: Record<string, string | string[] | undefined>, extra: Partial<PeerCertificate> = {}): PeerCertificate {
  return {
    subject,
    valid_from: 'Mar  1 11:00:00 2026 GMT',
    valid_to: 'Mar  1 13:00:00 2026 GMT',
    ext_key_usage: [CLIENT_AUTH],
    ...extra,
  } as unknown as PeerCertificate;
}

describe('identityFromPeerCertificate', () => {
  const good = [
    { name: 'groups as an array (several O)', subject: { CN: 'alice', OU: 'acme01', O: ['devs', 'ops'] }, groups: ['devs', 'ops'] },
    { name: 'one group as a string (one O)', subject: { CN: 'alice', OU: 'acme01', O: 'devs' }, groups: ['devs'] },
    { name: 'no groups', subject: { CN: 'alice', OU: 'acme01' }, groups: [] },
  ];
  for (const c of good) {
    it(c.name, () => {
      assert.deepEqual(identityFromPeerCertificate(peer(c.subject), NOW), {
        tenantId: 'acme01', user: 'alice', groups: c.groups, via: 'certificate', issuedAt: new Date('2026-03-01T11:00:00Z'),
      });
    });
  }

  const bad: { name: string; cert: PeerCertificate }[] = [
    { name: 'adversarial: no CN', cert: peer({ OU: 'acme01' }) },
    { name: 'adversarial: two CNs', cert: peer({ CN: ['alice', 'admin'], OU: 'acme01' }) },
    { name: 'adversarial: no OU', cert: peer({ CN: 'alice' }) },
    { name: 'adversarial: two OUs (two tenants)', cert: peer({ CN: 'alice', OU: ['acme01', 'other1'] }) },
    { name: 'adversarial: OU is not a tenant id', cert: peer({ CN: 'alice', OU: 'ACME01' }) },
    { name: 'adversarial: OU is a prefixed id', cert: peer({ CN: 'alice', OU: 'acme01-x' }) },
    { name: 'adversarial: expired', cert: peer({ CN: 'alice', OU: 'acme01' }, { valid_to: 'Mar  1 11:59:59 2026 GMT' }) },
    { name: 'adversarial: not yet valid', cert: peer({ CN: 'alice', OU: 'acme01' }, { valid_from: 'Mar  1 12:00:01 2026 GMT' }) },
    { name: 'adversarial: serving certificate (no clientAuth usage)', cert: peer({ CN: 'alice', OU: 'acme01' }, { ext_key_usage: ['1.3.6.1.5.5.7.3.1'] }) },
    { name: 'adversarial: unreadable dates', cert: peer({ CN: 'alice', OU: 'acme01' }, { valid_from: 'whenever' }) },
  ];
  for (const c of bad) {
    it(`${c.name} → 401 Unauthorized`, () => {
      assert.throws(() => identityFromPeerCertificate(c.cert, NOW), (err: unknown) => {
        assert.ok(err instanceof AuthenticationError);
        assert.equal(err.code, 401);
        assert.equal(err.message, 'Unauthorized');
        return true;
      });
    });
  }
});
