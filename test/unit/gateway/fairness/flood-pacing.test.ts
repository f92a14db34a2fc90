import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFloodPacing } from '../../../../src/gateway/fairness/flood-pacing.ts';
import { FairLimiter, type Release } from '../../../../src/gateway/fairness/fair-limiter.ts';
import type { TenantLimits } from '../../../../src/gateway/fairness/fairness-config.ts';

const LIMITS: TenantLimits = { seats: 20, queueLength: 50, queueTimeoutMs: 10_000 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function setup(lagMs: () => number): { limiter: FairLimiter; pacing: ReturnType<typeof createFloodPacing> } {
  const pacing = createFloodPacing({ settings: { windowMs: 20, minRate: 50, burst: 1 }, targetLagMs: 1, lag: lagMs });
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
});
