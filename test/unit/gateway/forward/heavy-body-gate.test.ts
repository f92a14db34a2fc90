// The heavy-body gate's turn is for a request body the gateway reads: a read (GET, HEAD) that
// announces a body of unknown length (Transfer-Encoding) must not take it. A watch is a GET: holding
// the turn for the watch's life would make every large write of the tenant wait or be refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createHeavyBodyGate } from '../../../../src/gateway/forward/heavy-body-gate.ts';

function request(method: string, headers: IncomingMessage['headers']): IncomingMessage {
  return { method, headers } as IncomingMessage;
}

/** A response that stays open until close() (a watch's). */
function openResponse(): ServerResponse & { close(): void } {
  const res = Object.assign(new EventEmitter(), { closed: false }) as unknown as ServerResponse & { close(): void };
  res.close = () => { (res as { closed: boolean }).closed = true; res.emit('close'); };
  return res;
}

/** 'entered' if the gate let the request in before the next macrotask, else 'waiting'. */
async function entersAtOnce(entered: Promise<void>): Promise<'entered' | 'waiting'> {
  return await Promise.race([entered.then(() => 'entered' as const), new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
}

/**
 * A large write that waits behind the tenant's turn, then its client leaves: how the wait ended (within a
 * macrotask) and a weak reference to its response. A function of its own, so nothing of the test holds it.
 */
async function abandonWaiter(gate: ReturnType<typeof createHeavyBodyGate>): Promise<{ ref: WeakRef<object>; outcome: Promise<string> }> {
  const left = openResponse();
  const entered = gate.enter(request('POST', large), left, 't1');
  assert.equal(await entersAtOnce(entered), 'waiting');
  left.close();
  const outcome = Promise.race([entered.then(() => 'entered', (e: Error) => e.message), new Promise<string>((resolve) => setImmediate(() => resolve('still waiting')))]);
  return { ref: new WeakRef(left), outcome };
}

const chunked = { 'transfer-encoding': 'chunked' };
const large = { 'content-length': String(1024 * 1024) };

describe('heavy-body gate', () => {
  for (const method of ['GET', 'HEAD']) {
    it(`a ${method} with a chunked or large body takes no turn: the tenant's large write goes in at once`, async () => {
      const gate = createHeavyBodyGate();
      const watch = openResponse();
      for (const headers of [chunked, large]) assert.equal(await entersAtOnce(gate.enter(request(method, headers), watch, 't1')), 'entered');
      const write = openResponse();
      assert.equal(await entersAtOnce(gate.enter(request('POST', large), write, 't1')), 'entered', 'the write waited behind a read');
      watch.close();
      write.close();
    });
  }

  it('a waiter whose client left takes no place in the queue: the next large write waits, it is not refused', async () => {
    const gate = createHeavyBodyGate(256 * 1024, 1);
    const holder = openResponse();
    await gate.enter(request('POST', large), holder, 't1');
    const left = openResponse();
    const leftEntered = gate.enter(request('POST', large), left, 't1');
    await assert.rejects(gate.enter(request('POST', large), openResponse(), 't1'), /TooManyRequests|Too many requests/, 'a live waiter fills a queue of one');
    left.close();
    await assert.rejects(leftEntered, /client went away/, 'the waiter that left stops waiting');
    const next = openResponse();
    const entered = gate.enter(request('POST', large), next, 't1');
    assert.equal(await entersAtOnce(entered), 'waiting');
    holder.close();
    assert.equal(await entersAtOnce(entered), 'entered');
    next.close();
  });

  it('writes still take turns: a second large PUT waits until the first response closes', async () => {
    const gate = createHeavyBodyGate();
    const first = openResponse();
    assert.equal(await entersAtOnce(gate.enter(request('POST', chunked), first, 't1')), 'entered');
    const second = gate.enter(request('PUT', large), openResponse(), 't1');
    assert.equal(await entersAtOnce(second), 'waiting');
    assert.equal(await entersAtOnce(gate.enter(request('PATCH', large), openResponse(), 't2')), 'entered', 'another tenant never waits');
    first.close();
    assert.equal(await entersAtOnce(second), 'entered');
  });

  it('shutting down, the large writes waiting for their turn are answered 503 at once; the one in progress keeps its turn', async () => {
    const gate = createHeavyBodyGate();
    const holder = openResponse();
    await gate.enter(request('POST', large), holder, 't1');
    const waiting = [gate.enter(request('PUT', large), openResponse(), 't1'), gate.enter(request('POST', chunked), openResponse(), 't1')];
    assert.equal(await entersAtOnce(waiting[0]!), 'waiting');
    gate.drain();
    for (const w of waiting) await assert.rejects(w, (e: Error & { reason?: string; code?: number; details?: { retryAfterSeconds?: number } }) => e.reason === 'ServiceUnavailable' && e.code === 503 && /shutting down/.test(e.message) && e.details?.retryAfterSeconds === 1);
    // A later one that would wait is refused too; another tenant's, with no turn held, goes in (it is drained as any request).
    await assert.rejects(gate.enter(request('PUT', large), openResponse(), 't1'), /shutting down/);
    const other = openResponse();
    assert.equal(await entersAtOnce(gate.enter(request('PUT', large), other, 't2')), 'entered');
    holder.close();
    other.close();
    // The refused waiters left no place behind: the tenant's turn is free.
    assert.equal(await entersAtOnce(gate.enter(request('PUT', large), openResponse(), 't1')), 'entered');
  });

  it('a waiter whose client left is let go at once, and nothing of its request is kept (a tenant cannot grow the gateway\'s memory by hanging up)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const gate = createHeavyBodyGate(256 * 1024, 4);
    const holder = openResponse();
    await gate.enter(request('POST', large), holder, 't1');
    const refs: Array<WeakRef<object>> = [];
    for (let i = 0; i < 3; i++) {
      const { ref, outcome } = await abandonWaiter(gate);
      refs.push(ref);
      assert.equal(await outcome, 'client went away');
    }
    holder.close(); // the gone waiters leave the queue with the turn
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.deepEqual(refs.map((r) => r.deref() === undefined), [true, true, true], 'the responses of the waiters that left are collected');
  });
});
