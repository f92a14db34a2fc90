import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FairLimiter, RejectedError, type Release } from '../../../../src/gateway/fairness/fair-limiter.ts';
import type { QueueLimits } from '../../../../src/gateway/fairness/fairness-config.ts';

const limits = (seats: number, queueLength: number, queueTimeoutMs = 60_000): QueueLimits => ({ seats, queueLength, queueTimeoutMs });
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FairLimiter', () => {
  it('runs up to the tenant seats at once, queues the rest, rejects past the queue', async () => {
    const limiter = new FairLimiter(100);
    const l = limits(2, 1);
    const a = await limiter.acquire('a', l);
    await limiter.acquire('a', l);
    let third: Release | undefined;
    void limiter.acquire('a', l).then((r) => { third = r; });
    await assert.rejects(limiter.acquire('a', l), (err: unknown) => err instanceof RejectedError && err.reason === 'queue-full');
    assert.deepEqual(limiter.stats().tenants.a, { running: 2, queued: 1 });
    a();
    await settled();
    assert.ok(third, 'the queued request runs when a seat frees up');
    assert.deepEqual(limiter.stats().tenants.a, { running: 2, queued: 0 });
  });

  it('says a tenant\'s next request would be refused only while its queue is full', async () => {
    const limiter = new FairLimiter(100);
    const l = limits(1, 1);
    assert.equal(limiter.queueFull('a', l), false, 'an unknown tenant');
    const first = await limiter.acquire('a', l);
    assert.equal(limiter.queueFull('a', l), false, 'running, nothing queued');
    void limiter.acquire('a', l).then((release) => release());
    assert.equal(limiter.queueFull('a', l), true);
    assert.equal(limiter.queueFull('b', l), false, 'another tenant');
    first();
    await settled();
    assert.equal(limiter.queueFull('a', l), false, 'the queue moved on');
  });

  it('one tenant at its share does not hold up another', async () => {
    const limiter = new FairLimiter(100);
    await limiter.acquire('a', limits(1, 5));
    void limiter.acquire('a', limits(1, 5)).catch(() => undefined);
    const b = await limiter.acquire('b', limits(1, 5));
    assert.equal(typeof b, 'function');
    assert.equal(limiter.stats().running, 2);
  });

  it('serves waiting tenants round robin when the gateway-wide seats are the bottleneck', async () => {
    const limiter = new FairLimiter(1);
    const first = await limiter.acquire('a', limits(10, 10));
    const order: string[] = [];
    const take = (t: string): void => { void limiter.acquire(t, limits(10, 10)).then((release) => { order.push(t); release(); }); };
    take('a'); take('a'); take('a'); take('b'); take('c');
    first();
    await settled();
    await settled();
    assert.deepEqual(order, ['a', 'b', 'c', 'a', 'a']);
  });

  it('a queued request times out with queue-timeout', async () => {
    const limiter = new FairLimiter(10);
    await limiter.acquire('a', limits(1, 1, 10));
    // The queue deadline is unref'd (a server keeps the process alive, not a waiting request): this test must.
    const keepAlive = setTimeout(() => undefined, 5_000);
    await assert.rejects(limiter.acquire('a', limits(1, 1, 10)), (err: unknown) => err instanceof RejectedError && err.reason === 'queue-timeout');
    clearTimeout(keepAlive);
    assert.deepEqual(limiter.stats().tenants.a, { running: 1, queued: 0 });
  });

  it('a client that gives up leaves the queue; release twice counts once', async () => {
    const limiter = new FairLimiter(10);
    const r = await limiter.acquire('a', limits(1, 1));
    const abort = new AbortController();
    const waiting = limiter.acquire('a', limits(1, 1), abort.signal);
    abort.abort(new Error('gone'));
    await assert.rejects(waiting, /gone/);
    r();
    r();
    assert.deepEqual(limiter.stats(), { running: 0, queued: 0, limit: 10, tenants: {} });
  });

  it('a queue length of 0 rejects at once when the seats are taken', async () => {
    const limiter = new FairLimiter(10);
    await limiter.acquire('a', limits(1, 0));
    await assert.rejects(limiter.acquire('a', limits(1, 0)), RejectedError);
  });
});

describe('FairLimiter: least-served first', () => {
  it('gives the next free seat to the tenant running the fewest requests, even if it queued last', async () => {
    const limiter = new FairLimiter(3);
    const l = limits(10, 10);
    const held = [await limiter.acquire('noisy', l), await limiter.acquire('noisy', l), await limiter.acquire('noisy', l)];
    const order: string[] = [];
    for (let i = 0; i < 3; i++) void limiter.acquire('noisy', l).then(() => order.push('noisy'));
    void limiter.acquire('quiet', l).then(() => order.push('quiet'));
    held[0]?.();
    await settled();
    assert.deepEqual(order, ['quiet'], 'quiet (0 running) goes before noisy (2 running) though noisy queued first');
    held[1]?.();
    await settled();
    assert.deepEqual(order, ['quiet', 'noisy']);
  });
});
