import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAdaptiveSeats } from '../../../../src/gateway/fairness/adaptive-seats.ts';
import { FairLimiter, type Release } from '../../../../src/gateway/fairness/fair-limiter.ts';
import type { QueueLimits } from '../../../../src/gateway/fairness/fairness-config.ts';

const LIMITS: QueueLimits = { seats: 50, queueLength: 50, queueTimeoutMs: 60_000 };
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Another tenant's request came and went: the adaptive limit applies only while the gateway is shared (ADR 0012, session 12). */
async function neighbourSeen(limiter: FairLimiter): Promise<void> {
  (await limiter.acquire('neighbour', LIMITS))();
}

describe('adaptive seats behind the FairLimiter', () => {
  it('probes one request at a time, then opens the initial limit; completions are samples, bare releases are not', async () => {
    const clock = { t: 0 };
    const seats = createAdaptiveSeats({ now: () => clock.t, settings: { probeSamples: 3, initialLimit: 4 } });
    const limiter = new FairLimiter(seats, undefined, { now: () => clock.t });
    seats.onRaised(() => limiter.wake());
    await neighbourSeen(limiter);
    const first = await limiter.acquire('a', LIMITS);
    let second: Release | undefined;
    void limiter.acquire('a', LIMITS).then((r) => { second = r; });
    await settled();
    assert.equal(second, undefined, 'the probe runs one request at a time');
    // A long-running request handing its seat back (no argument) is not a sample.
    first();
    await settled();
    const probed = second as Release | undefined;
    assert.ok(probed);
    assert.equal(seats.stats().probing, true);
    clock.t += 2;
    probed(true);
    for (let i = 0; i < 2; i++) {
      const r = await limiter.acquire('a', LIMITS);
      clock.t += 2;
      r(true);
    }
    assert.deepEqual([seats.stats().probing, seats.stats().minRttMs, limiter.stats().limit], [false, 2, 4]);
    const running = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire('a', LIMITS)));
    assert.equal(limiter.stats().running, 4);
    for (const r of running) r();
  });

  it('an overdue probe ends on its timer and the waiters are served without any request ending', async () => {
    // The probe's deadline is on the seats' clock, so a loaded machine cannot end it before the waiters
    // are counted (with the real clock, 20 ms could pass before the next turn: flaky under load).
    const clock = { t: 0 };
    const seats = createAdaptiveSeats({ now: () => clock.t, settings: { probeMaxMs: 20, initialLimit: 3 } });
    const limiter = new FairLimiter(seats, undefined, { now: () => clock.t });
    seats.onRaised(() => limiter.wake());
    await neighbourSeen(limiter);
    const slow = await limiter.acquire('a', LIMITS);
    const waiting = [limiter.acquire('b', LIMITS), limiter.acquire('c', LIMITS)];
    await settled();
    assert.equal(limiter.stats().queued, 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(limiter.stats().queued, 2, 'the probe is not overdue on its own clock: its timer armed again');
    clock.t += 25;
    const keepAlive = setTimeout(() => undefined, 5_000);
    const served = await Promise.all(waiting);
    clearTimeout(keepAlive);
    assert.equal(limiter.stats().running, 3);
    for (const r of [slow, ...served]) r();
  });
});
