import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeContinue, encodeContinue } from '../../../../src/gateway/cache/continue-token.ts';
import { ApiError } from '../../../../src/core/api-error.ts';

describe('continue tokens', () => {
  it('round-trip (property)', () => {
    const key = fc.oneof(
      fc.stringMatching(/^[a-z0-9-]{1,20}\/[a-z0-9.-]{1,20}$/).map((k) => ({ key: `abc123-${k}`, crd: false })),
      fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((k) => ({ key: `abc123-${k}`, crd: false })),
      fc.stringMatching(/^[a-z0-9]{1,10}\.[a-z0-9.-]{1,20}$/).map((k) => ({ key: k.replace('.', '.abc123-'), crd: true })),
    );
    fc.assert(fc.property(key, fc.integer({ min: 1, max: 2 ** 50 }), (k, rv) => {
      const decoded = decodeContinue('abc123', encodeContinue('abc123', { rv, after: k.key }, k.crd), k.crd);
      return decoded.rv === rv && decoded.after === k.key;
    }));
  });

  it('shows no prefix once decoded', () => {
    const token = encodeContinue('abc123', { rv: 7, after: 'abc123-web/pod-1' });
    assert.deepEqual(JSON.parse(Buffer.from(token, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: 7, start: 'web/pod-1\u0000' });
  });

  const bad: { name: string; token: string; message: RegExp }[] = [
    { name: 'not base64 JSON', token: '%%%', message: /illegal base64 data/ },
    { name: 'another version', token: Buffer.from(JSON.stringify({ v: 'x', rv: 1, start: 'a' })).toString('base64url'), message: /does not recognize this encoded version/ },
    { name: 'no rv', token: Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', start: 'a' })).toString('base64url'), message: /incorrect encoded start resourceVersion/ },
    { name: 'JSON null', token: Buffer.from('null').toString('base64url'), message: /does not recognize/ },
  ];
  for (const c of bad) {
    it(`refuses ${c.name} with 400`, () => {
      assert.throws(() => decodeContinue('abc123', c.token), (err: unknown) => err instanceof ApiError && err.code === 400 && c.message.test(err.message));
    });
  }
});
