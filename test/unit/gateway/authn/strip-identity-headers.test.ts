import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fc from 'fast-check';
import { impersonationHeadersOf, isIdentityHeader, stripIdentityHeaders } from '../../../../src/gateway/authn/strip-identity-headers.ts';

/** A request as Node's parser leaves it: raw lines recorded, `headers` not built yet. */
function parsed(raw: string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  (req as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(raw, raw.length);
  return req;
}

const forged = [
  ['Impersonate-User', 'system:admin'],
  ['impersonate-group', 'system:masters'],
  ['IMPERSONATE-UID', '0'],
  ['Impersonate-Extra-Scopes', 'all'],
  ['X-Remote-User', 'admin'],
  ['x-remote-group', 'system:masters'],
  ['X-Remote-Extra-Acme', 'x'],
] as const;

describe('stripIdentityHeaders', () => {
  for (const [name, value] of forged) {
    it(`adversarial: removes ${name} from headers, headersDistinct and rawHeaders`, () => {
      const req = parsed([name, value, 'Accept', 'application/json']);
      assert.deepEqual(stripIdentityHeaders(req), [name.toLowerCase()]);
      assert.deepEqual(req.headers, { accept: 'application/json' });
      assert.deepEqual({ ...req.headersDistinct }, { accept: ['application/json'] });
      assert.deepEqual(req.rawHeaders, ['Accept', 'application/json']);
    });
  }

  it('keeps the Impersonate-* lines aside, in order, for the impersonation filter; X-Remote-* are dropped outright', () => {
    const req = parsed(['Impersonate-User', 'alice', 'X-Remote-User', 'admin', 'Impersonate-Group', 'g1', 'impersonate-group', 'g2', 'Accept', 'a']);
    stripIdentityHeaders(req);
    assert.deepEqual(impersonationHeadersOf(req), [['Impersonate-User', 'alice'], ['Impersonate-Group', 'g1'], ['impersonate-group', 'g2']]);
    assert.deepEqual(req.rawHeaders, ['Accept', 'a']);
    assert.deepEqual(impersonationHeadersOf(parsed(['Accept', 'a'])), []);
  });

  it('also cleans header bags that were built before it ran', () => {
    const req = parsed(['X-Remote-User', 'admin', 'Host', 'h']);
    void req.headers;
    void req.headersDistinct;
    stripIdentityHeaders(req);
    assert.deepEqual(req.headers, { host: 'h' });
    assert.deepEqual({ ...req.headersDistinct }, { host: ['h'] });
  });

  it('keeps look-alikes that are not identity headers', () => {
    const keep = ['X-Remote', 'Remote-User', 'X-Impersonate-User', 'Authorization', 'Impersonate'];
    for (const name of keep) assert.equal(isIdentityHeader(name), false, name);
  });

  it('property: no identity header survives, every other header does, in order', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/);
    const header = fc.oneof(
      fc.tuple(fc.constantFrom('Impersonate-', 'impersonate-', 'X-Remote-', 'x-REMOTE-'), token).map(([p, t]) => p + t),
      token,
    );
    fc.assert(fc.property(fc.array(fc.tuple(header, token), { maxLength: 12 }), (pairs) => {
      const req = parsed(pairs.flat());
      stripIdentityHeaders(req);
      const kept = pairs.filter(([n]) => !/^(impersonate-|x-remote-)/i.test(n));
      assert.deepEqual(req.rawHeaders, kept.flat());
      assert.ok(Object.keys(req.headers).every((n) => !isIdentityHeader(n)));
      assert.ok(Object.keys(req.headersDistinct).every((n) => !isIdentityHeader(n)));
    }));
  });
});
