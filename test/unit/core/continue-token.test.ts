// kube-apiserver's continue token, the one codec both the embedded apiserver and
// the gateway's cache use: a round trip for every position, kube's refusals.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../src/core/api-error.ts';
import { decodeContinueToken, encodeContinueToken } from '../../../src/core/continue-token.ts';

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('core/continue-token', () => {
  it('decode undoes encode for every revision and key', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.string(), (rv, start) => {
      assert.deepEqual(decodeContinueToken(encodeContinueToken({ rv, start })), { rv, start });
    }));
  });

  it('is kube\'s form: unpadded base64url JSON, the start key ending in NUL', () => {
    const token = encodeContinueToken({ rv: 7, start: 'ns/a' });
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(JSON.parse(Buffer.from(token, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: 7, start: 'ns/a\u0000' });
  });

  const refused: Array<[string, string, RegExp]> = [
    ['a character outside base64url', 'ab=c', /illegal base64 data at input byte 2/],
    ['not JSON', 'bm90IGpzb24', /illegal base64 data at input byte 0/],
    ['JSON null', b64(null), /does not recognize this encoded version/],
    ['another version', b64({ v: 'meta.k8s.io/v2', rv: 1, start: 'a' }), /does not recognize this encoded version/],
    ['a zero revision', b64({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }), /incorrect encoded start resourceVersion/],
    ['a fractional revision', b64({ v: 'meta.k8s.io/v1', rv: 1.5, start: 'a' }), /incorrect encoded start resourceVersion/],
    ['no start key', b64({ v: 'meta.k8s.io/v1', rv: 3 }), /incorrect encoded start resourceVersion/],
  ];
  for (const [name, token, message] of refused) {
    it(`refuses ${name} with a 400 in kube's words`, () => {
      assert.throws(() => decodeContinueToken(token), (err: unknown) => err instanceof ApiError && err.code === 400 && message.test(err.message));
    });
  }
});
