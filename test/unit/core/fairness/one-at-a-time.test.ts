// The heavy-body gate's bookkeeping (ADR 0026): one holder per key, waiters in
// arrival order, other keys never wait, a release counts once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OneAtATime } from '../../../../src/core/fairness/one-at-a-time.ts';

describe('OneAtATime', () => {
  it('one holder per key; the next waiter gets the turn on release, in arrival order', async () => {
    const gate = new OneAtATime();
    const order: string[] = [];
    const first = await gate.acquire('t1');
    const second = gate.acquire('t1').then((release) => { order.push('second'); return release; });
    const third = gate.acquire('t1').then((release) => { order.push('third'); return release; });
    await Promise.resolve();
    assert.deepEqual(order, []);
    assert.equal(gate.waiting('t1'), 2);
    first();
    (await second)();
    (await third)();
    assert.deepEqual(order, ['second', 'third']);
    assert.equal(gate.busyKeys(), 0);
  });

  it('tryAcquire: undefined once maxWaiting wait behind the holder; a turn again when one has moved up', async () => {
    const gate = new OneAtATime();
    const held = await gate.acquire('t1');
    const waiter = gate.tryAcquire('t1', 1);
    assert.ok(waiter);
    assert.equal(gate.tryAcquire('t1', 1), undefined);
    assert.ok(gate.tryAcquire('t2', 0), 'another key is not refused');
    held();
    const next = await waiter;
    assert.ok(gate.tryAcquire('t1', 1));
    next();
  });

  it('a waiter that is gone takes no place: tryAcquire is not refused for it, and the turn skips it', async () => {
    const gate = new OneAtATime();
    const held = await gate.acquire('t1');
    let left = false;
    let ghostGranted = false;
    void gate.acquire('t1', () => left).then(() => { ghostGranted = true; });
    assert.equal(gate.tryAcquire('t1', 1), undefined, 'one live waiter fills a queue of one');
    left = true;
    assert.equal(gate.waiting('t1'), 0);
    const live = gate.tryAcquire('t1', 1);
    assert.ok(live, 'refused because of a waiter whose client left');
    held();
    (await live)();
    assert.equal(ghostGranted, false);
    assert.equal(gate.busyKeys(), 0);
  });

  it('another key never waits for a held one', async () => {
    const gate = new OneAtATime();
    const held = await gate.acquire('heavy');
    const other = await gate.acquire('quiet');
    assert.equal(gate.busyKeys(), 2);
    other();
    held();
    assert.equal(gate.busyKeys(), 0);
  });

  it('a release called twice gives the turn back once', async () => {
    const gate = new OneAtATime();
    const first = await gate.acquire('t');
    let granted = 0;
    const next = gate.acquire('t').then((r) => { granted++; return r; });
    const after = gate.acquire('t').then((r) => { granted++; return r; });
    first();
    first();
    await next;
    await Promise.resolve();
    assert.equal(granted, 1, 'the second release must not skip the queue');
    (await next)();
    (await after)();
    assert.equal(gate.busyKeys(), 0);
  });
});
