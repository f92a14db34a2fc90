import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planCredentials, type IssuedCredential } from '../../../../src/controllers/onboarding/plan-credentials.ts';

const H = 3600_000;
const now = new Date('2025-06-01T12:00:00Z');
const cred = (user: string, issuedHoursAgo: number, lifetimeH = 30, groups: string[] = []): IssuedCredential => ({
  user, groups,
  notBefore: new Date(now.getTime() - issuedHoursAgo * H),
  notAfter: new Date(now.getTime() - issuedHoursAgo * H + lifetimeH * H),
});

describe('planCredentials', () => {
  const cases: { name: string; existing: IssuedCredential[]; groups?: string[]; revokeBefore?: Date; want: string[]; requeueH?: number; drop?: string[] }[] = [
    { name: 'new user', existing: [], want: ['u:new'], requeueH: 20 },
    { name: 'fresh certificate: nothing, look again at 2/3 of its life', existing: [cred('u', 5)], want: [], requeueH: 15 },
    { name: 'rotation once under a third is left', existing: [cred('u', 21)], want: ['u:rotate'], requeueH: 20 },
    { name: 'groups changed', existing: [cred('u', 1, 30, ['a'])], groups: ['b'], want: ['u:changed'] },
    { name: 'lifetime changed', existing: [cred('u', 1, 10)], want: ['u:changed'] },
    { name: 'issued before revokeBefore', existing: [cred('u', 1)], revokeBefore: new Date(now.getTime() - 1000), want: ['u:revoke'] },
    { name: 'issued in the same second as revokeBefore counts', existing: [cred('u', 0)], revokeBefore: new Date(now.getTime() + 500), want: [] },
    { name: 'revokeBefore in the future: wait for it', existing: [cred('u', 1)], revokeBefore: new Date(now.getTime() + 5_000), want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = planCredentials({
        users: [{ name: 'u', groups: c.groups ?? [] }],
        existing: new Map(c.existing.map((e) => [e.user, e])),
        lifetimeMs: 30 * H, now,
        ...(c.revokeBefore ? { revokeBefore: c.revokeBefore } : {}),
      });
      assert.deepEqual(plan.issue.map((i) => `${i.user.name}:${i.why}`), c.want);
      if (c.requeueH !== undefined) assert.equal(plan.requeueAfterMs, c.requeueH * H);
    });
  }

  it('wakes up right after a future revocation instant, and reports revokedUpTo only once it passed', () => {
    const revokeBefore = new Date(now.getTime() + 5_000);
    const waiting = planCredentials({ users: [{ name: 'u' }], existing: new Map([['u', cred('u', 1)]]), lifetimeMs: 30 * H, now, revokeBefore });
    assert.equal(waiting.requeueAfterMs, 6_000);
    assert.equal(waiting.revokedUpTo, undefined);
    const later = new Date(now.getTime() + 6_000);
    const due = planCredentials({ users: [{ name: 'u' }], existing: new Map([['u', cred('u', 1)]]), lifetimeMs: 30 * H, now: later, revokeBefore });
    assert.deepEqual(due.issue.map((i) => i.why), ['revoke']);
    assert.equal(due.revokedUpTo, revokeBefore);
  });

  it('drops users no longer in the spec', () => {
    const plan = planCredentials({ users: [], existing: new Map([['gone', cred('gone', 1)]]), lifetimeMs: 30 * H, now });
    assert.deepEqual(plan.drop, ['gone']);
    assert.equal(plan.requeueAfterMs, undefined);
  });
});
