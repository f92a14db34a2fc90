// The answer reader against a hostile member (ADR 0019, ADR 0041 amendment):
// header lines another HTTP parser would read differently (obs-fold, space
// before the colon, a name that is not a token, a bare CR or LF or NUL inside
// a value) are refused rather than guessed at; a 101 answer the engine never
// asked for, a status line under 100, and a body over the bound are refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Http1ResponseReader, MalformedResponseError } from '../../../src/kube/http1-response.ts';

const head = (lines: string[]): Buffer => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
const read = (raw: Buffer, maxBodyBytes?: number): unknown => new Http1ResponseReader('GET', maxBodyBytes).feed(raw);

const tokenChar = fc.constantFrom(...'!#$%&\'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
const token = fc.array(tokenChar, { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
const value = fc.array(fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f), { maxLength: 20 }).map((cs) => Buffer.from(cs).toString('latin1').trim());

describe('Http1ResponseReader against a hostile member', () => {
  it('reads every header line made of a token, a colon and a visible value', () => {
    fc.assert(fc.property(token, value, (name, v) => {
      const res = new Http1ResponseReader('GET').feed(head(['HTTP/1.1 200 OK', 'Content-Length: 0', `${name}: ${v}`]));
      assert.ok(res);
      if (name.toLowerCase() !== 'content-length' && name.toLowerCase() !== 'set-cookie' && name.toLowerCase() !== 'transfer-encoding') assert.equal(res.headers[name.toLowerCase()], v);
    }), { numRuns: 300 });
  });

  it('refuses a header line that begins with a space or tab (obs-fold), whatever it says', () => {
    fc.assert(fc.property(fc.constantFrom(' ', '\t', '  '), token, value, (ws, name, v) => {
      assert.throws(() => read(head(['HTTP/1.1 200 OK', 'X-First: a', `${ws}${name}: ${v}`, 'Content-Length: 0'])), MalformedResponseError);
    }), { numRuns: 200 });
    // The smuggling shape: a proxy that folds reads no length here; the reader must not read one either.
    assert.throws(() => read(Buffer.from('HTTP/1.1 200 OK\r\nX: a\r\n Content-Length: 5\r\n\r\nhello')), MalformedResponseError);
  });

  it('refuses white space before the colon and a name that is not a token', () => {
    fc.assert(fc.property(token, fc.constantFrom(' ', '\t', ' \t'), (name, ws) => {
      assert.throws(() => read(head(['HTTP/1.1 200 OK', `${name}${ws}: v`, 'Content-Length: 0'])), MalformedResponseError);
    }), { numRuns: 100 });
    for (const bad of ['Content Length: 5', 'X(y): 1', 'X\x80: 1', 'X/Y: 1']) {
      assert.throws(() => read(head(['HTTP/1.1 200 OK', bad, 'Content-Length: 0'])), MalformedResponseError, bad);
    }
  });

  it('refuses a bare CR, a bare LF, NUL or another control character inside a header value', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x09), fc.constantFrom(0x7f), (c, del) => {
      for (const ch of [c, del]) {
        assert.throws(() => read(head(['HTTP/1.1 200 OK', `X-A: a${String.fromCharCode(ch)}Content-Length: 5`, 'Content-Length: 0'])), MalformedResponseError, `char ${ch}`);
      }
    }), { numRuns: 60 });
  });

  it('refuses a 101 answer (the engine never asks to switch protocols) and a status under 100', () => {
    assert.throws(() => read(head(['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: h2c'])), MalformedResponseError);
    assert.throws(() => read(head(['HTTP/1.1 101 Switching Protocols', 'Content-Length: 0'])), MalformedResponseError);
    for (const status of ['000', '042', '099']) assert.throws(() => read(head([`HTTP/1.1 ${status} X`, 'Content-Length: 0'])), MalformedResponseError, status);
  });

  it('refuses a body over the bound, whether its length says so at once or it only grows', () => {
    assert.throws(() => read(head(['HTTP/1.1 200 OK', 'Content-Length: 1025']), 1024), MalformedResponseError);
    assert.doesNotThrow(() => read(Buffer.concat([head(['HTTP/1.1 200 OK', 'Content-Length: 1024']), Buffer.alloc(1024, 0x61)]), 1024));
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 12 }), (sizes) => {
      const reader = new Http1ResponseReader('GET', 1024);
      const total = sizes.reduce((a, b) => a + b, 0);
      const feed = (): void => {
        reader.feed(head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']));
        for (const size of sizes) reader.feed(Buffer.from(`${size.toString(16)}\r\n${'a'.repeat(size)}\r\n`));
        reader.feed(Buffer.from('0\r\n\r\n'));
      };
      if (total > 1024) assert.throws(feed, MalformedResponseError);
      else assert.doesNotThrow(feed);
    }), { numRuns: 100 });
    const untilClose = new Http1ResponseReader('GET', 1024);
    untilClose.feed(head(['HTTP/1.1 200 OK']));
    assert.throws(() => untilClose.feed(Buffer.alloc(1025)), MalformedResponseError);
  });
});
