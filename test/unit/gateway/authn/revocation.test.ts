import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isRevoked } from '../../../../src/gateway/authn/revocation.ts';

const T = Date.parse('2026-03-01T12:00:00.400Z');

describe('isRevoked', () => {
  const cases = [
    { name: 'no revocation point', issued: T - 86_400_000, notBefore: undefined, revoked: false },
    { name: 'issued a second before', issued: T - 1400, notBefore: T, revoked: true },
    { name: 'issued long before', issued: T - 86_400_000, notBefore: T, revoked: true },
    { name: 'issued in the same second, after (whole-second credentials floor it below T)', issued: Math.floor(T / 1000) * 1000, notBefore: T, revoked: false },
    { name: 'issued after', issued: T + 1000, notBefore: T, revoked: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(isRevoked(new Date(c.issued), c.notBefore === undefined ? undefined : new Date(c.notBefore)), c.revoked);
    });
  }

  it('property: revoked exactly when issued in a whole second before the revocation second', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e12 }), (issued, notBefore) => {
      const expected = Math.floor(issued / 1000) < Math.floor(notBefore / 1000);
      assert.equal(isRevoked(new Date(issued), new Date(notBefore)), expected);
      if (issued >= notBefore) assert.equal(isRevoked(new Date(issued), new Date(notBefore)), false);
    }));
  });
});
