import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_GRADIENT_SETTINGS, GradientLimit, buildGradient, percentile, type GradientLimitSettings } from '../../../../src/core/fairness/gradient-limit.ts';
import { mean, simulate } from './limit-simulation.ts';

const settings = (over: Partial<GradientLimitSettings> = {}): GradientLimitSettings => ({ ...DEFAULT_GRADIENT_SETTINGS, ...over });

/** Runs `n` requests of `ms` each, `concurrency` at a time, against the limit, on a fake clock. */
function feed(limit: GradientLimit, clock: { t: number }, n: number, ms: number, concurrency = 1): void {
  for (let done = 0; done < n; done += concurrency) {
    const tickets = Array.from({ length: concurrency }, (_, i) => limit.begin(i + 1));
    clock.t += ms;
    for (const t of tickets) limit.end(t);
  }
}

describe('buildGradient', () => {
  const table: [string, number, number, number][] = [
    ['latency at the tolerated figure', 15, 15, 1],
    ['latency twice the tolerated', 15, 30, 0.5],
    ['latency far beyond: clamped at 0.5', 15, 300, 0.5],
    ['latency well inside: clamped at 2', 15, 1, 2],
    ['a zero sample (clock too coarse): no queueing', 0, 0, 2],
  ];
  for (const [name, tolerated, sample, want] of table) it(name, () => assert.equal(buildGradient(tolerated, sample), want));
});

describe('percentile', () => {
  it('nearest rank', () => {
    assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
    assert.equal(percentile([5, 1, 3, 2, 4], 100), 5);
    assert.equal(percentile([5, 1, 3, 2, 4], 0), 1);
    assert.equal(percentile([7], 99), 7);
  });
});

describe('GradientLimit', () => {
  it('starts by probing at 1 seat, then runs on the initial limit with the probe as baseline', () => {
    const clock = { t: 0 };
    const limit = new GradientLimit(settings(), () => clock.t);
    assert.equal(limit.limit(), 1);
    feed(limit, clock, 10, 2);
    assert.deepEqual({ limit: limit.limit(), probing: limit.stats().probing, minRtt: limit.stats().minRttMs }, { limit: 4, probing: false, minRtt: 2 });
  });

  it('shrinks by the gradient when latency rises with concurrency, grows when it does not', () => {
    const clock = { t: 0 };
    const limit = new GradientLimit(settings({ initialLimit: 20, windowMs: 1 }), () => clock.t);
    feed(limit, clock, 10, 2);
    // 20 at once taking 12 ms against a 2 ms baseline (tolerated 3 ms): gradient clamps at 0.5.
    feed(limit, clock, 20, 12, 20);
    assert.equal(limit.limit(), 10);
    assert.equal(limit.stats().gradient, 0.5);
    // 10 at once at the baseline: gradient 1.5, grows by half of (0.5 x 10 + sqrt 10).
    feed(limit, clock, 10, 2, 10);
    assert.equal(limit.limit(), Math.floor(10 + 0.5 * (5 + Math.sqrt(10))));
  });

  it('does not grow while the seats it has are not used (app-limited)', () => {
    const clock = { t: 0 };
    const limit = new GradientLimit(settings({ initialLimit: 10 }), () => clock.t);
    feed(limit, clock, 10, 2);
    feed(limit, clock, 200, 2, 1);
    assert.equal(limit.limit(), 10);
  });

  it('probes again after the interval, with jitter, ignoring requests that started beside others', () => {
    const clock = { t: 0 };
    const limit = new GradientLimit(settings({ probeIntervalMs: 1_000, probeJitter: 0.2, initialLimit: 8 }), () => clock.t, () => 1);
    feed(limit, clock, 10, 2);
    clock.t += 1_150;
    const early = limit.begin(1);
    assert.equal(limit.stats().probing, false, 'not before interval x (1 + jitter)');
    limit.end(early);
    clock.t += 100;
    const crowded = limit.begin(5);
    assert.deepEqual([limit.stats().probing, limit.limit()], [true, 1]);
    clock.t += 50;
    limit.end(crowded);
    feed(limit, clock, 10, 4);
    assert.equal(limit.stats().minRttMs, 4, 'the 50 ms request that started beside 4 others is not a baseline sample');
    assert.equal(limit.limit(), 8, 'the limit from before the probe is back');
  });

  it('an overdue probe ends with what it has, so one slow request cannot pin the gateway to 1 seat', () => {
    const clock = { t: 0 };
    const limit = new GradientLimit(settings({ probeMaxMs: 1_000 }), () => clock.t);
    assert.equal(limit.probeDeadline(), undefined, 'no traffic, no deadline');
    const slow = limit.begin(1);
    assert.equal(limit.probeDeadline(), 1_000);
    clock.t = 999;
    assert.equal(limit.advance(), false);
    clock.t = 1_000;
    assert.equal(limit.advance(), true);
    assert.deepEqual([limit.stats().probing, limit.limit(), limit.stats().minRttMs], [false, 4, undefined]);
    limit.end(slow);
  });

  it('re-measures the baseline after 5 windows stuck at the floor (the upstream got slower for good)', () => {
    const clock = { t: 0 };
    const limit = new GradientLimit(settings({ initialLimit: 1 }), () => clock.t);
    feed(limit, clock, 10, 2);
    feed(limit, clock, 50, 20);
    assert.equal(limit.stats().probing, false);
    limit.end(limit.begin(1));
    assert.equal(limit.stats().probing, true);
    feed(limit, clock, 10, 20);
    assert.equal(limit.stats().minRttMs, 20);
  });

  it('stays within [minLimit, maxLimit] and pins to probeConcurrency while probing, whatever the latencies', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }), fc.integer({ min: 5, max: 50 }),
      fc.array(fc.record({ ms: fc.integer({ min: 0, max: 500 }), concurrency: fc.integer({ min: 1, max: 60 }) }), { minLength: 1, maxLength: 80 }),
      (minLimit, maxLimit, steps) => {
        const clock = { t: 0 };
        const limit = new GradientLimit(settings({ minLimit, maxLimit, initialLimit: 4, probeIntervalMs: 500 }), () => clock.t);
        for (const step of steps) {
          feed(limit, clock, step.concurrency, step.ms, step.concurrency);
          const now = limit.limit();
          if (limit.stats().probing) assert.equal(now, 1);
          else assert.ok(now >= minLimit && now <= maxLimit, `limit ${String(now)} outside [${String(minLimit)}, ${String(maxLimit)}]`);
        }
      },
    ));
  });
});

describe('GradientLimit in a model of a flooded gateway (200 closed-loop clients)', () => {
  it('a CPU-bound gateway+upstream settles near its cores, latency within ~2x the unloaded one, full throughput', () => {
    for (const cores of [1, 2, 4]) {
      for (const base of [1, 3]) {
        const r = simulate({ settings: settings(), clients: 200, latencyAt: (n) => base * Math.max(1, n / cores), durationMs: 30_000, warmupMs: 5_000 });
        const seats = mean(r.limits);
        assert.ok(seats >= cores * 0.75 && seats <= cores * 2, `cores ${String(cores)}: mean limit ${seats.toFixed(2)}`);
        assert.ok(percentile(r.latencies, 50) <= 2 * base, `cores ${String(cores)}: p50 ${String(percentile(r.latencies, 50))}`);
        assert.ok(percentile(r.latencies, 99) <= 3 * base, `cores ${String(cores)}: p99 ${String(percentile(r.latencies, 99))}`);
        assert.ok(r.completed / 30 >= 0.95 * (1000 / base) * cores, `cores ${String(cores)}: throughput ${String(r.completed / 30)}/s`);
      }
    }
  });

  it('a remote upstream (50 ms round trip whatever the concurrency) gets every seat up to the ceiling within seconds', () => {
    const r = simulate({ settings: settings({ maxLimit: 600 }), clients: 1000, latencyAt: () => 50, durationMs: 10_000, warmupMs: 0 });
    assert.equal(r.limits.at(-1), 600);
    assert.equal(r.maxRunning, 600);
  });

  it('the fixed ceiling still caps an upstream that never slows down', () => {
    const r = simulate({ settings: settings({ maxLimit: 32 }), clients: 100, latencyAt: () => 5, durationMs: 5_000, warmupMs: 0 });
    assert.equal(r.maxRunning, 32);
  });
});
