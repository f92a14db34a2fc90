import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_PACER_SETTINGS, FloodPacer, type FloodPacerSettings } from '../../../../src/core/fairness/flood-pacer.ts';

const SETTINGS: FloodPacerSettings = { ...DEFAULT_PACER_SETTINGS, windowMs: 100, heavyOutstanding: 4, activeWindowMs: 1_000, minRate: 5, increase: 0.1, burst: 2, slowStartHoldWindows: 10 };

function setup(): { clock: { t: number }; pacer: FloodPacer } {
  const clock = { t: 0 };
  return { clock, pacer: new FloodPacer(SETTINGS, () => clock.t) };
}

/** One window: `flooder` keeps 50 outstanding and starts `starts` requests; `quiet` (if given) sends one at a time. */
function floodWindow(ctx: ReturnType<typeof setup>, pressure: number, starts: number, quiet = true): boolean {
  ctx.pacer.observe('noisy', 50);
  for (let i = 0; i < starts; i++) ctx.pacer.started('noisy');
  if (quiet) {
    ctx.pacer.observe('quiet', 1);
    ctx.pacer.started('quiet');
    ctx.pacer.observe('quiet', 0);
  }
  ctx.clock.t += 100;
  return ctx.pacer.tick(pressure);
}

describe('FloodPacer', () => {
  it('a paced flooder runs at most heavyConcurrency requests at once, tokens or not; light and lone tenants are never capped', () => {
    const capped = { clock: { t: 0 }, pacer: undefined as unknown as FloodPacer };
    capped.pacer = new FloodPacer({ ...SETTINGS, heavyConcurrency: 1, burst: 50 }, () => capped.clock.t);
    floodWindow(capped, 0, 1); // noisy turns heavy beside quiet: paced from now on
    capped.clock.t += 1_000; // plenty of tokens saved up
    assert.equal(capped.pacer.mayStart('noisy', 0), true, 'nothing running: it may start');
    assert.equal(capped.pacer.mayStart('noisy', 1), false, 'one running: it waits, though it has tokens');
    assert.equal(capped.pacer.mayStart('quiet', 30), true, 'a light tenant is never capped');
    const lone = { clock: { t: 0 }, pacer: undefined as unknown as FloodPacer };
    lone.pacer = new FloodPacer({ ...SETTINGS, heavyConcurrency: 1 }, () => lone.clock.t);
    for (let w = 0; w < 5; w++) floodWindow(lone, 10, 200, false);
    assert.equal(lone.pacer.mayStart('noisy', 40), true, 'a lone flooder is not paced, so not capped either');
    const uncapped = { clock: { t: 0 }, pacer: undefined as unknown as FloodPacer };
    uncapped.pacer = new FloodPacer({ ...SETTINGS, heavyConcurrency: 0, burst: 50 }, () => uncapped.clock.t);
    floodWindow(uncapped, 0, 1);
    uncapped.clock.t += 1_000;
    assert.equal(uncapped.pacer.mayStart('noisy', 10), true, 'heavyConcurrency 0: no cap, tokens decide');
  });

  it('a lone flooder is never paced, however high the pressure (work-conserving)', () => {
    const ctx = setup();
    for (let w = 0; w < 20; w++) floodWindow(ctx, 10, 200, false);
    assert.equal(ctx.pacer.stats().rate, undefined);
    for (let i = 0; i < 100; i++) assert.equal(ctx.pacer.mayStart('noisy'), true);
  });

  it('two flooders and nobody else: neither is paced (nobody to protect)', () => {
    const ctx = setup();
    for (let w = 0; w < 5; w++) {
      ctx.pacer.observe('a', 50);
      ctx.pacer.observe('b', 50);
      ctx.clock.t += 100;
      ctx.pacer.tick(10);
    }
    assert.deepEqual([ctx.pacer.stats().rate, ctx.pacer.mayStart('a'), ctx.pacer.mayStart('b')], [undefined, true, true]);
  });

  it('with a quiet tenant active, the flooder starts from its observed rate scaled by 1/pressure, and the quiet tenant is never paced', () => {
    const ctx = setup();
    floodWindow(ctx, 2, 100); // 100 starts in 100 ms = 1000/s, pressure 2 → 500/s
    assert.equal(ctx.pacer.stats().rate, 500);
    assert.deepEqual(ctx.pacer.stats().heavy, ['noisy']);
    for (let i = 0; i < 50; i++) assert.equal(ctx.pacer.mayStart('quiet'), true);
  });

  const table: Array<{ name: string; pressure: number; expected: number }> = [
    { name: 'pressure 4: halved at most', pressure: 4, expected: 50 },
    { name: 'pressure 1.25: divided by the pressure', pressure: 1.25, expected: 80 },
    { name: 'pressure 0.8: grown by increase plus one', pressure: 0.8, expected: 111 },
    { name: 'pressure 0.2: doubled (slow start)', pressure: 0.2, expected: 200 },
  ];
  for (const row of table) {
    it(`rate rule: ${row.name}`, () => {
      const ctx = setup();
      floodWindow(ctx, 1, 10); // 100/s at pressure 1
      assert.equal(ctx.pacer.stats().rate, 100);
      floodWindow(ctx, row.pressure, 10);
      assert.ok(Math.abs((ctx.pacer.stats().rate ?? 0) - row.expected) < 1e-9, `rate ${String(ctx.pacer.stats().rate)}`);
    });
  }

  it('after a decrease, doubling stops at the rate it left, and the climb goes on additively', () => {
    const ctx = setup();
    floodWindow(ctx, 1, 20); // 200/s
    floodWindow(ctx, 2, 20); // over: halved to 100/s, doubling stops at 100
    assert.equal(ctx.pacer.stats().rate, 100);
    floodWindow(ctx, 0.2, 10);
    assert.ok(Math.abs((ctx.pacer.stats().rate ?? 0) - 111) < 1e-9, 'additive, not doubled');
    floodWindow(ctx, 0.2, 10);
    assert.ok(Math.abs((ctx.pacer.stats().rate ?? 0) - (111 * 1.1 + 1)) < 1e-9);
  });

  it('the cap on doubling expires after slowStartHoldWindows windows without a decrease', () => {
    const ctx = setup();
    floodWindow(ctx, 1, 20); // 200/s
    floodWindow(ctx, 2, 20); // halved to 100/s: doubling capped at 100
    let rate = 100;
    for (let w = 1; w < SETTINGS.slowStartHoldWindows; w++) {
      floodWindow(ctx, 0.2, 10);
      rate = rate * 1.1 + 1;
      assert.ok(Math.abs((ctx.pacer.stats().rate ?? 0) - rate) < 1e-6, `window ${String(w)}: additive`);
    }
    floodWindow(ctx, 0.2, 10);
    assert.ok(Math.abs((ctx.pacer.stats().rate ?? 0) - rate * 2) < 1e-6, 'doubled again once the cap expired');
  });

  it('a flood that begins while a quiet tenant is active is paced at once, from the floor, before any window closes', () => {
    const ctx = setup();
    ctx.pacer.observe('quiet', 1);
    ctx.pacer.observe('quiet', 0);
    ctx.clock.t += 10;
    ctx.pacer.observe('noisy', 1);
    assert.equal(ctx.pacer.mayStart('noisy'), true, 'not heavy yet');
    ctx.pacer.started('noisy');
    ctx.pacer.observe('noisy', 200);
    assert.equal(ctx.pacer.stats().rate, SETTINGS.minRate);
    assert.equal(ctx.pacer.mayStart('noisy'), true, 'one token to start with');
    ctx.pacer.started('noisy');
    assert.equal(ctx.pacer.mayStart('noisy'), false);
    assert.equal(ctx.pacer.mayStart('quiet'), true);
  });

  it('never below minRate', () => {
    const ctx = setup();
    floodWindow(ctx, 1, 0);
    assert.equal(ctx.pacer.stats().rate, SETTINGS.minRate);
    for (let w = 0; w < 10; w++) floodWindow(ctx, 100, 0);
    assert.equal(ctx.pacer.stats().rate, SETTINGS.minRate);
  });

  it('a paced flooder gets tokens at its rate, with a burst of at most `burst`', () => {
    const ctx = setup();
    floodWindow(ctx, 1, 1); // 10/s
    let allowed = 0;
    for (let ms = 0; ms < 1_000; ms++) {
      ctx.clock.t += 1;
      while (ctx.pacer.mayStart('noisy')) {
        ctx.pacer.started('noisy');
        allowed++;
      }
    }
    // 1 s at 10/s, plus the initial token.
    assert.ok(allowed >= 10 && allowed <= 11, `allowed ${String(allowed)}`);
    ctx.clock.t += 10_000;
    let burst = 0;
    while (ctx.pacer.mayStart('noisy')) {
      ctx.pacer.started('noisy');
      burst++;
    }
    assert.equal(burst, SETTINGS.burst);
  });

  it('nextTokenAt says when a paced flooder may start next; undefined when not pacing', () => {
    const ctx = setup();
    assert.equal(ctx.pacer.nextTokenAt(), undefined);
    floodWindow(ctx, 1, 1); // 10/s
    while (ctx.pacer.mayStart('noisy')) ctx.pacer.started('noisy');
    const at = ctx.pacer.nextTokenAt() as number;
    assert.ok(at > ctx.clock.t && at <= ctx.clock.t + 100, `next ${String(at)} at ${String(ctx.clock.t)}`);
    ctx.clock.t = at;
    assert.equal(ctx.pacer.mayStart('noisy'), true);
  });

  it('pacing ends once the quiet tenant has been idle for activeWindowMs, and tick says so (waiters may go)', () => {
    const ctx = setup();
    floodWindow(ctx, 2, 10);
    assert.notEqual(ctx.pacer.stats().rate, undefined);
    let loosened = false;
    for (let w = 0; w < 11; w++) loosened = floodWindow(ctx, 2, 10, false) || loosened;
    assert.equal(ctx.pacer.stats().rate, undefined);
    assert.equal(loosened, true);
    assert.equal(ctx.pacer.mayStart('noisy'), true);
  });

  it('a flooder whose queue sat still through a window stays heavy (its outstanding carries over)', () => {
    const ctx = setup();
    floodWindow(ctx, 2, 10);
    ctx.pacer.observe('quiet', 0);
    ctx.clock.t += 100;
    ctx.pacer.tick(2); // no observe() from noisy in this window
    assert.deepEqual(ctx.pacer.stats().heavy, ['noisy']);
  });

  it('property: a tenant that never has more than heavyOutstanding outstanding is never refused', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ pressure: fc.double({ min: 0, max: 20, noNaN: true }), starts: fc.nat(300), quietOutstanding: fc.integer({ min: 0, max: SETTINGS.heavyOutstanding }) }), { minLength: 1, maxLength: 40 }),
      (windows) => {
        const ctx = setup();
        for (const w of windows) {
          ctx.pacer.observe('quiet', w.quietOutstanding);
          if (!ctx.pacer.mayStart('quiet')) return false;
          floodWindow(ctx, w.pressure, w.starts, false);
        }
        return true;
      },
    ));
  });

  it('property: while pacing, the rate stays ≥ minRate and finite, and never more than halves per window', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 2, maxLength: 60 }), (pressures) => {
      const ctx = setup();
      let previous: number | undefined;
      for (const p of pressures) {
        floodWindow(ctx, p, 20);
        const rate = ctx.pacer.stats().rate;
        if (rate === undefined || !Number.isFinite(rate) || rate < SETTINGS.minRate) return false;
        if (previous !== undefined && rate < Math.max(SETTINGS.minRate, previous / 2) - 1e-9) return false;
        previous = rate;
      }
      return true;
    }));
  });
});
