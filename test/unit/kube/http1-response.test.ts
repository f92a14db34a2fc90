// The HTTP/1.1 answer reader (ADR 0041): whatever the byte boundaries of the
// connection's reads, the same answer comes out; framing a hostile member could
// use to smuggle a second answer, or to make the engine read another one's bytes,
// is refused, and a connection with bytes left over is not reused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Http1ResponseReader, MalformedResponseError, type Http1Response } from '../../../src/kube/http1-response.ts';

/** Feeds `raw` cut at `cuts`; the answer and whether it came before the end of the bytes. */
function readIn(raw: Buffer, cuts: number[], method = 'GET'): Http1Response | undefined {
  const reader = new Http1ResponseReader(method);
  const points = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...points, raw.length]) {
    if (to <= from) continue;
    const res = reader.feed(raw.subarray(from, to));
    if (res) return res;
    from = to;
  }
  return undefined;
}

function chunked(body: Buffer, sizes: number[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= body.length) break;
    const piece = body.subarray(at, at + Math.max(1, size));
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    at += piece.length;
  }
  if (at < body.length) parts.push(Buffer.from(`${(body.length - at).toString(16)};ext=1\r\n`), body.subarray(at), Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\nX-Trailer: t\r\n\r\n'));
  return Buffer.concat(parts);
}

const head = (lines: string[]): Buffer => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

describe('Http1ResponseReader', () => {
  it('reads the same answer whatever the reads are cut at (Content-Length and chunked)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(), { maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 8 }), fc.boolean(),
      (bytes, cuts, sizes, useChunked) => {
        const body = Buffer.from(bytes);
        const raw = useChunked
          ? Buffer.concat([head(['HTTP/1.1 201 Created', 'Content-Type: application/json', 'Transfer-Encoding: chunked']), chunked(body, sizes)])
          : Buffer.concat([head(['HTTP/1.1 201 Created', 'Content-Type: application/json', `Content-Length: ${body.length}`]), body]);
        const res = readIn(raw, cuts);
        assert.ok(res, 'the answer is complete');
        assert.equal(res.status, 201);
        assert.equal(res.headers['content-type'], 'application/json');
        assert.deepEqual([...res.body], [...body]);
        assert.equal(res.reusable, true);
      }));
  });

  it('is not complete until the last byte of the body', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 500 }), fc.boolean(), (bytes, useChunked) => {
      const body = Buffer.from(bytes);
      const raw = useChunked
        ? Buffer.concat([head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), chunked(body, [7])])
        : Buffer.concat([head(['HTTP/1.1 200 OK', `Content-Length: ${body.length}`]), body]);
      assert.equal(new Http1ResponseReader('GET').feed(raw.subarray(0, raw.length - 1)), undefined);
    }));
  });

  it('answers without a body: HEAD, 204, 304, Content-Length 0', () => {
    assert.equal(readIn(head(['HTTP/1.1 200 OK', 'Content-Length: 42']), [], 'HEAD')?.body.length, 0);
    assert.equal(readIn(head(['HTTP/1.1 204 No Content']), [])?.status, 204);
    assert.equal(readIn(head(['HTTP/1.1 304 Not Modified']), [])?.status, 304);
    assert.equal(readIn(head(['HTTP/1.1 200 OK', 'Content-Length: 0']), [])?.reusable, true);
  });

  it('skips a 100 Continue before the answer', () => {
    const raw = Buffer.concat([head(['HTTP/1.1 100 Continue']), head(['HTTP/1.1 200 OK', 'Content-Length: 2']), Buffer.from('{}')]);
    const res = readIn(raw, [5, 30]);
    assert.equal(res?.status, 200);
    assert.equal(res?.body.toString(), '{}');
  });

  it('a body that runs to the connection\'s end is read at end(), and the connection is not reused', () => {
    const reader = new Http1ResponseReader('GET');
    assert.equal(reader.feed(Buffer.concat([head(['HTTP/1.1 200 OK']), Buffer.from('{"a"')])), undefined);
    assert.equal(reader.feed(Buffer.from(':1}')), undefined);
    const res = reader.end();
    assert.equal(res.body.toString(), '{"a":1}');
    assert.equal(res.reusable, false);
  });

  it('end() before the answer is complete is an error', () => {
    const reader = new Http1ResponseReader('GET');
    reader.feed(Buffer.concat([head(['HTTP/1.1 200 OK', 'Content-Length: 10']), Buffer.from('{}')]));
    assert.throws(() => reader.end(), MalformedResponseError);
    assert.throws(() => new Http1ResponseReader('GET').end(), MalformedResponseError);
  });

  it('Connection: close, HTTP/1.0 and bytes after the answer make the connection not reusable', () => {
    assert.equal(readIn(Buffer.concat([head(['HTTP/1.1 200 OK', 'Connection: close', 'Content-Length: 2']), Buffer.from('{}')]), [])?.reusable, false);
    assert.equal(readIn(Buffer.concat([head(['HTTP/1.0 200 OK', 'Content-Length: 2']), Buffer.from('{}')]), [])?.reusable, false);
    const smuggled = Buffer.concat([head(['HTTP/1.1 200 OK', 'Content-Length: 2']), Buffer.from('{}'), head(['HTTP/1.1 200 OK', 'Content-Length: 0'])]);
    const res = readIn(smuggled, []);
    assert.equal(res?.body.toString(), '{}');
    assert.equal(res?.reusable, false);
  });

  it('refuses ambiguous or malformed framing', () => {
    const bad = [
      [head(['HTTP/1.1 200 OK', 'Content-Length: 2', 'Transfer-Encoding: chunked']), Buffer.from('2\r\n{}\r\n0\r\n\r\n')],
      [head(['HTTP/1.1 200 OK', 'Transfer-Encoding: gzip, chunked']), Buffer.from('0\r\n\r\n')],
      [head(['HTTP/1.1 200 OK', 'Content-Length: 2', 'Content-Length: 3']), Buffer.from('{}')],
      [head(['HTTP/1.1 200 OK', 'Content-Length: -2']), Buffer.from('{}')],
      [head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('zz\r\n{}\r\n0\r\n\r\n')],
      [head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']), Buffer.from('1\r\n{}\r\n0\r\n\r\n')],
      [head(['HTTP/2 200', 'Content-Length: 0']), Buffer.alloc(0)],
      [head(['HTTP/1.1 200 OK', 'no colon here']), Buffer.alloc(0)],
    ];
    for (const [h, b] of bad) assert.throws(() => new Http1ResponseReader('GET').feed(Buffer.concat([h as Buffer, b as Buffer])), MalformedResponseError, (h as Buffer).toString());
  });

  it('refuses a head larger than the bound instead of buffering it without end', () => {
    const reader = new Http1ResponseReader('GET');
    reader.feed(Buffer.from('HTTP/1.1 200 OK\r\n'));
    assert.throws(() => reader.feed(Buffer.from(`X-Big: ${'a'.repeat(70 * 1024)}`)), MalformedResponseError);
  });

  it('keeps repeated headers as node:http does', () => {
    const res = readIn(head(['HTTP/1.1 200 OK', 'Warning: a', 'Warning: b', 'Set-Cookie: x=1', 'Set-Cookie: y=2', 'Content-Length: 0']), []);
    assert.equal(res?.headers.warning, 'a, b');
    assert.deepEqual(res?.headers['set-cookie'], ['x=1', 'y=2']);
  });
});
