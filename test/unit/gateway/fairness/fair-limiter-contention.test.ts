// ADR 0012, session 12: the adaptive gateway-wide limit holds while several tenants are
// active (a neighbour's latency is at stake) and not while one tenant has the gateway alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAdaptiveSeats } from '../../../../src/gateway/fairness/adaptive-seats.ts';
import { FairLimiter, type Release, type SeatLimit } from '../../../../src/gateway/fairness/fair-limiter.ts';
import type { QueueLimits } from '../../../../src/gateway/fairness/fairness-config.ts';

const LIMITS: QueueLimits = { seats: 20, queueLength: 50, queueTimeoutMs: 60_000 };
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup(): { clock: { t: number }; limiter: FairLimiter; seats: ReturnType<typeof createAdaptiveSeats> } {
  const clock = { t: 0 };
  // The adaptive limit starts probing (1 seat) and its probe never ends here (no deadline reached).
  const seats = createAdaptiveSeats({ now: () => clock.t, settings: { maxLimit: 600, probeMaxMs: 3_600_000 } });
  const limiter = new FairLimiter(seats, undefined, { now: () => clock.t, contentionWindowMs: 1_000 });
  seats.onRaised(() => limiter.wake());
  return { clock, limiter, seats };
}

describe('adaptive seats apply only while the gateway is shared', () => {
  it('a tenant alone runs up to its own seats while the adaptive limit (probing, 1 seat) keeps learning without binding', async () => {
    const { limiter, seats } = setup();
    const running = await Promise.all(Array.from({ length: 20 }, () => limiter.acquire('acme', LIMITS)));
    assert.equal(limiter.stats().running, 20);
    assert.equal(limiter.stats().limit, 600);
    assert.deepEqual([seats.current(), seats.stats().probing], [1, true], 'the adaptive limit itself is still probing at 1');
    const extra: { r?: Release } = {};
    void limiter.acquire('acme', LIMITS).then((r) => { extra.r = r; });
    await settled();
    assert.equal(extra.r, undefined, 'its own 20 seats still bound it');
    for (const r of running) r(true);
    await settled();
    assert.ok(extra.r);
    (extra.r as unknown as Release)(true);
  });

  it('what a lone tenant taught the limit is what a neighbour meets on arrival (no cold start)', async () => {
    const clock = { t: 0 };
    const seats = createAdaptiveSeats({ now: () => clock.t, settings: { maxLimit: 600, initialLimit: 16, probeSamples: 10, windowMs: 100, windowSamples: 10 } });
    const limiter = new FairLimiter(seats, undefined, { now: () => clock.t, contentionWindowMs: 1_000 });
    // Alone and sequential: the probe measures a 2 ms baseline.
    for (let i = 0; i < 10; i++) {
      const r = await limiter.acquire('acme', LIMITS);
      clock.t += 2;
      r(true);
    }
    assert.deepEqual([seats.stats().probing, seats.stats().minRttMs], [false, 2]);
    // Alone and bursting: 16 at once, each 20 ms, over 100 ms windows: latency far beyond tolerance.
    for (let w = 0; w < 3; w++) {
      const burst = await Promise.all(Array.from({ length: 16 }, () => limiter.acquire('acme', LIMITS)));
      clock.t += 100;
      for (const r of burst) r(true);
    }
    const learned = seats.current();
    assert.ok(learned < 16, `the lone burst shrank the adaptive limit (now ${learned})`);
    assert.equal(limiter.stats().limit, 600, 'but it did not bind the lone tenant');
    (await limiter.acquire('globex', LIMITS))(true);
    assert.equal(limiter.stats().limit, learned, 'a neighbour seen: the learned limit binds at once');
  });

  it("a neighbour's arrival brings the adaptive limit back at once: the flooder waits, the neighbour goes first", async () => {
    const { clock, limiter } = setup();
    const flood = await Promise.all(Array.from({ length: 5 }, () => limiter.acquire('noisy', LIMITS)));
    const quiet: { r?: Release } = {};
    void limiter.acquire('quiet', LIMITS).then((r) => { quiet.r = r; });
    const moreFlood: { r?: Release } = {};
    void limiter.acquire('noisy', LIMITS).then((r) => { moreFlood.r = r; });
    await settled();
    assert.deepEqual([quiet.r, moreFlood.r, limiter.stats().limit], [undefined, undefined, 1], 'both wait: 5 running, 1 seat while probing');
    // Seats come back one by one; until running drops below the limit nobody starts, then quiet first.
    for (const r of flood.slice(0, 4)) r(true);
    await settled();
    assert.deepEqual([quiet.r, moreFlood.r], [undefined, undefined]);
    clock.t += 1;
    (flood[4] as Release)(true);
    await settled();
    assert.ok(quiet.r, 'the tenant running nothing gets the freed seat');
    assert.equal(moreFlood.r, undefined);
    (quiet.r as unknown as Release)(true);
    await settled();
    assert.ok(moreFlood.r);
    (moreFlood.r as unknown as Release)(true);
  });

  it('once no other tenant was seen for the window, the lone tenant gets the ceiling again', async () => {
    const { clock, limiter } = setup();
    (await limiter.acquire('quiet', LIMITS))(true);
    clock.t += 500;
    const first = await limiter.acquire('noisy', LIMITS);
    const second: { r?: Release } = {};
    void limiter.acquire('noisy', LIMITS).then((r) => { second.r = r; });
    await settled();
    assert.equal(second.r, undefined, 'quiet was seen 500 ms ago: the adaptive limit (1) holds');
    clock.t += 501;
    // The next release re-reads the limit: quiet is now out of the window.
    const third = limiter.acquire('noisy', LIMITS);
    first(true);
    await settled();
    assert.ok(second.r);
    const r3 = await third;
    assert.equal(limiter.stats().running, 2);
    assert.equal(limiter.stats().limit, 600);
    (second.r as unknown as Release)(true);
    r3(true);
  });

  it('a fixed limit (adaptive seats off) binds a lone tenant as before', async () => {
    const limiter = new FairLimiter(2);
    const running = await Promise.all([limiter.acquire('acme', LIMITS), limiter.acquire('acme', LIMITS)]);
    const third: { r?: Release } = {};
    void limiter.acquire('acme', LIMITS).then((r) => { third.r = r; });
    await settled();
    assert.equal(third.r, undefined);
    for (const r of running) r(true);
    await settled();
    assert.ok(third.r);
    (third.r as unknown as Release)(true);
  });
});

describe('tryAcquire (the seat taken without waiting machinery)', () => {
  it('takes a free seat at once, and never jumps a waiting request of its own tenant or another', async () => {
    const limiter = new FairLimiter(1);
    const first = limiter.tryAcquire('acme', LIMITS);
    assert.ok(first);
    assert.equal(limiter.tryAcquire('acme', LIMITS), undefined, 'no seat free');
    const waiting: { r?: Release } = {};
    void limiter.acquire('globex', LIMITS).then((r) => { waiting.r = r; });
    first(true);
    // The freed seat went to the waiter by dispatch; a newcomer's tryAcquire finds none.
    assert.equal(limiter.tryAcquire('acme', LIMITS), undefined);
    await settled();
    assert.ok(waiting.r);
    assert.equal(limiter.stats().running, 1);
    (waiting.r as unknown as Release)(true);
    assert.equal(limiter.stats().running, 0);
  });
});

describe('the clock is read once per acquire and per release (review of session 12)', () => {
  it('a lone tenant: tryAcquire, and a release that dispatches a waiter, each read the limiter clock once', async () => {
    let reads = 0;
    // A limit with a ceiling for a lone tenant, as adaptive seats: each seat check asks whether the gateway is
    // contended, which (one flow only) reads the clock for the window of recent tenants.
    const seats: SeatLimit = { current: () => 16, uncontended: () => 600, begin: () => undefined };
    const limiter = new FairLimiter(seats, undefined, { now: () => { reads++; return 0; }, contentionWindowMs: 1_000 });
    const two: QueueLimits = { ...LIMITS, seats: 2 };
    const first = limiter.tryAcquire('acme', two);
    assert.equal(reads, 1, 'one read for a seat taken at once (contention check included)');
    const second = limiter.tryAcquire('acme', two);
    assert.ok(first && second);
    const waiting: Release[] = [];
    for (let i = 0; i < 2; i++) void limiter.acquire('acme', two).then((r) => waiting.push(r));
    reads = 0;
    first(true);
    assert.equal(reads, 1, 'one read for a release whose dispatch checked the limit several times');
    await settled();
    assert.equal(waiting.length, 1, 'the freed seat went to the first waiter, the second still waits');
    assert.equal(limiter.stats().running, 2);
    second(true);
    await settled();
    assert.equal(waiting.length, 2);
    for (const r of waiting) r(true);
    assert.equal(limiter.stats().running, 0);
  });
});
