import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFloodPacing } from '../../../../src/gateway/fairness/flood-pacing.ts';
import { FairLimiter, type Release } from '../../../../src/gateway/fairness/fair-limiter.ts';
import type { QueueLimits } from '../../../../src/gateway/fairness/fairness-config.ts';

const LIMITS: QueueLimits = { seats: 20, queueLength: 50, queueTimeoutMs: 10_000 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// heavyConcurrency 0 by default here: these cases are about the rate; the last one is about the cap.
function setup(lagMs: () => number, heavyConcurrency = 0): { limiter: FairLimiter; pacing: ReturnType<typeof createFloodPacing> } {
  const pacing = createFloodPacing({ settings: { windowMs: 20, minRate: 50, burst: 1, heavyConcurrency }, targetLagMs: 1, lag: lagMs });
  const limiter = new FairLimiter(600, pacing);
  pacing.onReady(() => limiter.wake());
  return { limiter, pacing };
}

describe('flood pacing behind the FairLimiter', () => {
  // The pacer's timers are unref'd (a server keeps the process alive); here a test timer does.
  let keepAlive: NodeJS.Timeout | undefined;
  beforeEach(() => { keepAlive = setInterval(() => undefined, 1_000); });
  afterEach(() => clearInterval(keepAlive));

  it('a lone flooder keeps its whole share however loaded the loop is (work-conserving)', async () => {
    const { limiter, pacing } = setup(() => 50);
    const held: Release[] = [];
    for (let round = 0; round < 3; round++) {
      const got = await Promise.all(Array.from({ length: 20 }, () => limiter.acquire('noisy', LIMITS)));
      held.push(...got);
      await sleep(30);
      for (const r of held.splice(0)) r(true);
    }
    assert.equal(pacing.stats().rate, undefined);
  });

  it('with a quiet tenant active and the loop delayed, the flooder is paced; quiet is not; paced waiters are served by the token timer', async () => {
    const { limiter, pacing } = setup(() => 50);
    const quiet = await limiter.acquire('quiet', LIMITS);
    quiet(true);
    // noisy holds 10 (more than heavyOutstanding) while quiet is active: windows close under a 50 ms loop delay.
    const first = await Promise.all(Array.from({ length: 10 }, () => limiter.acquire('noisy', LIMITS)));
    await sleep(50);
    for (const r of first) r(true);
    const rate = pacing.stats().rate;
    assert.ok(rate !== undefined && rate <= 250, `rate ${String(rate)}: the starting 500/s at least halved`);
    assert.deepEqual(pacing.stats().heavy, ['noisy']);
    // Keep quiet active, and ask for 10 more noisy requests with 600 seats free.
    const started: number[] = [];
    const t0 = performance.now();
    const pending = Array.from({ length: 10 }, () => limiter.acquire('noisy', LIMITS).then((r) => {
      started.push(performance.now() - t0);
      r(true);
    }));
    const q = await limiter.acquire('quiet', LIMITS);
    assert.ok(performance.now() - t0 < 15, 'quiet runs at once');
    q(true);
    await sleep(5);
    assert.ok(started.length <= 2, `noisy is paced: ${String(started.length)} started at once`);
    await Promise.all(pending);
    // 10 requests at ≤ 250/s (one token banked) take ≥ 36 ms; a bug that never woke the queue would time out instead.
    assert.ok((started.at(-1) ?? 0) >= 30, `last noisy start at ${String(started.at(-1))} ms`);
  });

  it('once the loop delay falls, the rate grows and pacing ends when quiet goes idle', async () => {
    let lag = 50;
    const { limiter, pacing } = setup(() => lag);
    (await limiter.acquire('quiet', LIMITS))(true);
    const first = await Promise.all(Array.from({ length: 10 }, () => limiter.acquire('noisy', LIMITS)));
    await sleep(50);
    const paced = pacing.stats().rate as number;
    lag = 0;
    await sleep(80);
    // Additive after the decrease that paced it (doubling stops at the rate a decrease left).
    assert.ok((pacing.stats().rate as number) > paced, `grows: ${String(pacing.stats().rate)} from ${String(paced)}`);
    await sleep(1_100); // quiet idle for activeWindowMs
    assert.equal(pacing.stats().rate, undefined);
    for (const r of first) r(true);
  });

  it('a paced flooder runs one request at a time (heavyConcurrency 1); the next starts when it ends; quiet is not held', async () => {
    const { limiter, pacing } = setup(() => 50, 1);
    const quietHeld = await limiter.acquire('quiet', LIMITS); // quiet stays active throughout
    // 4 noisy requests start at once (not heavy yet); 6 more make it heavy beside quiet, so it is paced.
    const first = await Promise.all(Array.from({ length: 4 }, () => limiter.acquire('noisy', LIMITS)));
    const releases: Release[] = [];
    const pending = Array.from({ length: 6 }, () => limiter.acquire('noisy', LIMITS).then((r) => { releases.push(r); }));
    assert.deepEqual(pacing.stats().heavy, ['noisy']);
    await sleep(60); // tokens come due meanwhile (at least 50/s)
    assert.equal(releases.length, 0, 'four running: none of the six may start');
    for (const r of first.slice(1)) r(true);
    await sleep(40);
    assert.equal(releases.length, 0, 'one still running: still none');
    const q = await limiter.acquire('quiet', LIMITS);
    q(true); // quiet is not held by noisy's cap
    first[0]?.(true);
    await sleep(30);
    assert.equal(releases.length, 1, 'one starts once the running one ends, not all six');
    releases[0]?.(true); // still 5 outstanding (heavy): the next one, and only it
    await sleep(30);
    assert.equal(releases.length, 2, 'the second starts when the first ends');
    // Below heavyOutstanding it is no longer a flooder: the rest run freely.
    for (const r of releases.slice(1)) r(true);
    await sleep(30);
    for (const r of releases.slice(2)) r(true);
    await Promise.all(pending);
    assert.equal(releases.length, 6);
    quietHeld(true);
  });
});
