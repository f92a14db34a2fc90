import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, buildTenantLimits } from '../../../../src/gateway/fairness/fairness-config.ts';
import { isLongRunning } from '../../../../src/gateway/fairness/long-running.ts';
import { buildTooManyRequests } from '../../../../src/gateway/fairness/too-many-requests.ts';

describe('buildTenantLimits', () => {
  const cases: Array<[string, Parameters<typeof buildTenantLimits>, ReturnType<typeof buildTenantLimits>]> = [
    ['defaults', [{}, 'abcdef'], DEFAULT_LIMITS],
    ['config defaults', [{ defaults: { seats: 5 } }, 'abcdef'], { ...DEFAULT_LIMITS, seats: 5 }],
    ['per-tenant config beats defaults', [{ defaults: { seats: 5 }, tenants: { abcdef: { seats: 7, queueLength: 0 } } }, 'abcdef'], { ...DEFAULT_LIMITS, seats: 7, queueLength: 0 }],
    ['another tenant keeps the defaults', [{ defaults: { seats: 5 }, tenants: { abcdef: { seats: 7 } } }, 'zzzzzz'], { ...DEFAULT_LIMITS, seats: 5 }],
    ['the Tenant object wins', [{ tenants: { abcdef: { seats: 7 } } }, 'abcdef', { fairness: { seats: 3, queueTimeoutMs: 100 } }], { ...DEFAULT_LIMITS, seats: 3, queueTimeoutMs: 100 }],
    ['broken values are ignored', [{ defaults: { seats: 0, queueLength: -1, queueTimeoutMs: 1.5 } }, 'abcdef'], DEFAULT_LIMITS],
  ];
  for (const [name, args, want] of cases) it(name, () => assert.deepEqual(buildTenantLimits(...args), want));
});

describe('isLongRunning', () => {
  const info = (verb: string, subresource = '', isResourceRequest = true) => ({ verb, subresource, isResourceRequest });
  const cases: Array<[ReturnType<typeof info>, boolean]> = [
    [info('watch'), true],
    [info('get', 'log'), true],
    [info('create', 'exec'), true],
    [info('get', 'attach'), true],
    [info('create', 'portforward'), true],
    [info('list'), false],
    [info('get', 'status'), false],
    [info('create'), false],
    [info('get', '', false), false],
  ];
  for (const [input, want] of cases) it(`${input.verb} ${input.subresource || '-'} → ${want}`, () => assert.equal(isLongRunning(input), want));
});

describe('buildTooManyRequests', () => {
  it('is a 429 TooManyRequests Status with retryAfterSeconds and the tenant\'s own numbers', () => {
    const status = buildTooManyRequests({ reason: 'queue-full', seats: 4, queueLength: 8, retryAfterSeconds: 2 }).toStatus();
    assert.equal(status.code, 429);
    assert.equal(status.reason, 'TooManyRequests');
    assert.equal(status.details?.retryAfterSeconds, 2);
    assert.match(status.message ?? '', /4 requests in progress and 8 waiting/);
  });
});
