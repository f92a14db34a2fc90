// An unforeseen failure (a bug, a file system error) answers kube's generic 500:
// nothing of the thrown message reaches the client, only the request id that the
// log line carries. ApiErrors keep their own message and reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError, forbidden, toApiError } from '../../../src/core/api-error.ts';

describe('toApiError', () => {
  it('hides the message of anything that is not an ApiError, naming only the request id', () => {
    fc.assert(fc.property(
      fc.string({ minLength: 4 }).filter((s) => s.trim().length >= 4),
      fc.constantFrom<'error' | 'string' | 'object'>('error', 'string', 'object'),
      fc.option(fc.uuid(), { nil: undefined }),
      (secret, shape, requestId) => {
        const thrown = shape === 'error' ? new Error(secret) : shape === 'string' ? secret : { message: secret };
        const status = toApiError(thrown, requestId).toStatus();
        const wire = JSON.stringify(status);
        assert.equal(status.code, 500);
        assert.equal(status.reason, 'InternalError');
        assert.ok(!wire.includes(JSON.stringify(secret).slice(1, -1)) || (requestId ?? 'unknown').includes(secret), `the thrown message leaked: ${wire}`);
        assert.match(status.message ?? '', /^an error on the server \(".*"\) has prevented the request from succeeding$/);
        assert.ok(status.message?.includes(requestId ?? 'unknown'), 'the message names the request id');
      },
    ));
  });

  it('a file path in an ENOENT never reaches the client', () => {
    const err = Object.assign(new Error("ENOENT: no such file or directory, open '/var/lib/warren/host/store.log'"), { code: 'ENOENT' });
    const status = toApiError(err, 'abc-123').toStatus();
    assert.doesNotMatch(JSON.stringify(status), /var\/lib|ENOENT|store\.log/);
    assert.equal(status.message, 'an error on the server ("request abc-123") has prevented the request from succeeding');
  });

  it('keeps an ApiError as it is', () => {
    const err = forbidden({ resource: 'pods', verb: 'get', namespace: 'shop', user: 'alice' }, '');
    assert.equal(toApiError(err, 'x'), err);
    const conflict = new ApiError('Conflict', 'Operation cannot be fulfilled');
    assert.equal(toApiError(conflict).toStatus().message, 'Operation cannot be fulfilled');
  });
});
