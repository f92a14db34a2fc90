// Bodies read before the seat (body-read-first.ts): read once and kept, bounded by a deadline and a
// per-tenant count; reads (GET, a watch) are never waited for. The 429s worded for the tenant who gets them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyReadFirst, createBodyReader } from '../../../../src/gateway/forward/body-read-first.ts';
import { buildTooManyRequests } from '../../../../src/gateway/fairness/too-many-requests.ts';

function request(method: string, headers: IncomingMessage['headers']): IncomingMessage & PassThrough {
  return Object.assign(new PassThrough(), { method, headers }) as unknown as IncomingMessage & PassThrough;
}

function response(): ServerResponse & { close(): void; headers: Record<string, unknown> } {
  const headers: Record<string, unknown> = {};
  const res = Object.assign(new EventEmitter(), { headers, setHeader: (k: string, v: unknown) => { headers[k.toLowerCase()] = v; } }) as unknown as ServerResponse & { close(): void; headers: Record<string, unknown> };
  res.close = () => res.emit('close');
  return res;
}

describe('bodies read before the seat', () => {
  it('a POST\'s body is read whole and kept for the forwarder; a GET\'s is not waited for', async () => {
    const reader = createBodyReader();
    const post = request('POST', { 'content-length': '11' });
    const reading = reader.read(post, response(), 't1');
    post.write('hello ');
    setImmediate(() => post.end('world'));
    await reading;
    assert.equal(bodyReadFirst(post)?.toString(), 'hello world');
    const watch = request('GET', { 'transfer-encoding': 'chunked' });
    await reader.read(watch, response(), 't1');
    assert.equal(bodyReadFirst(watch), undefined);
    assert.equal(watch.readableLength, 0);
  });

  it('a body not sent within the deadline: 504 Timeout, and the connection is closed after the answer', async () => {
    const reader = createBodyReader({ deadlineMs: 20 });
    const req = request('PUT', { 'content-length': '100' });
    const res = response();
    req.write('x');
    await assert.rejects(reader.read(req, res, 't1'), (err: { code?: number; reason?: string }) => err.code === 504 && err.reason === 'Timeout');
    assert.equal(res.headers.connection, 'close');
    req.destroy();
  });

  it('a tenant\'s bodies read ahead are bounded (429); another tenant\'s are not; a closed answer frees its place', async () => {
    const reader = createBodyReader({ perTenant: 2 });
    const held = [response(), response()];
    for (const res of held) {
      const req = request('POST', { 'content-length': '1' });
      req.end('x');
      await reader.read(req, res, 'noisy');
    }
    const refused = reader.read(request('POST', { 'content-length': '1' }), response(), 'noisy');
    await assert.rejects(refused, /Too many requests, please try again later: this cluster already has 2 request bodies being received or waiting/);
    const other = request('POST', { 'content-length': '1' });
    other.end('y');
    await reader.read(other, response(), 'quiet');
    held[0]!.close();
    const again = request('POST', { 'content-length': '1' });
    again.end('z');
    await reader.read(again, response(), 'noisy');
    assert.equal(bodyReadFirst(again)?.toString(), 'z');
  });

  it('a queue timeout names the tenant\'s own seats only when it used them all', () => {
    const own = buildTooManyRequests({ reason: 'queue-timeout', seats: 20, queueLength: 50, running: 20, retryAfterSeconds: 1 });
    assert.match(own.message, /this cluster's 20 request seats stayed busy/);
    const shared = buildTooManyRequests({ reason: 'queue-timeout', seats: 20, queueLength: 50, running: 0, retryAfterSeconds: 1 });
    assert.doesNotMatch(shared.message, /20 request seats stayed busy/);
    assert.match(shared.message, /the server was busy for as long as the request could wait \(this cluster had 0 of its 20 request seats in use\)/);
  });
});
