import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusError } from '../../../src/kube/status-error.ts';

describe('statusError', () => {
  const cases = [
    { name: 'a Status body keeps reason, message and details', status: 404, body: { kind: 'Status', reason: 'NotFound', message: 'configmaps "x" not found', details: { name: 'x', kind: 'configmaps' }, code: 404 }, reason: 'NotFound', message: 'configmaps "x" not found', details: { name: 'x', kind: 'configmaps' } },
    { name: 'no body: the reason comes from the code', status: 409, body: undefined, reason: 'AlreadyExists', message: 'the upstream apiserver answered 409', details: undefined },
    { name: 'an unknown reason falls back to the code', status: 429, body: { kind: 'Status', reason: 'Weird', message: 'slow down' }, reason: 'TooManyRequests', message: 'slow down', details: undefined },
    { name: 'an unmapped code is an InternalError with that code', status: 502, body: 'bad gateway', reason: 'InternalError', message: 'the upstream apiserver answered 502', details: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const err = statusError(c.status, c.body);
      assert.equal(err.reason, c.reason);
      assert.equal(err.code, c.status);
      assert.equal(err.message, c.message);
      assert.deepEqual(err.details, c.details);
    });
  }
});
