// The gateway-wide seats as a limit that follows latency (core/fairness/
// gradient-limit.ts), behind the FairLimiter's SeatLimit: the core gets the
// process's monotonic clock and Math.random, and this adapter owns the one
// timer the core cannot (a probe that must end on time even when no request
// ends to tell it). fairness.totalSeats stays the ceiling, and is the limit
// while one tenant has the gateway to itself.
import { DEFAULT_GRADIENT_SETTINGS, GradientLimit, type GradientLimitSettings, type GradientLimitStats } from '../../core/fairness/gradient-limit.ts';
import type { SeatLimit } from './fair-limiter.ts';

export interface AdaptiveSeats extends SeatLimit {
  stats(): GradientLimitStats;
  /** Called when the limit rose without a request ending (an overdue probe ended): serve the waiters. */
  onRaised(wake: () => void): void;
}

export interface AdaptiveSeatsOptions {
  settings?: Partial<GradientLimitSettings>;
  now?: () => number;
  random?: () => number;
}

export function createAdaptiveSeats(options: AdaptiveSeatsOptions = {}): AdaptiveSeats {
  const now = options.now ?? (() => performance.now());
  const settings: GradientLimitSettings = { ...DEFAULT_GRADIENT_SETTINGS, ...options.settings };
  const limit = new GradientLimit(settings, now, options.random ?? Math.random);
  let wake: () => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const armProbeDeadline = (): void => {
    const deadline = limit.probeDeadline();
    if (deadline === undefined || timer) return;
    // Timers have millisecond granularity and may fire a fraction early against the
    // sub-millisecond clock: round up, and arm again if the probe is not yet overdue.
    timer = setTimeout(() => {
      timer = undefined;
      if (limit.advance()) wake();
      else armProbeDeadline();
    }, Math.max(0, Math.ceil(deadline - now()) + 1));
    // The server keeps the process alive, not a probe's deadline.
    timer.unref();
  };
  return {
    current: () => limit.limit(),
    // A tenant alone gets the ceiling (fairness.totalSeats); the FairLimiter decides when (ADR 0012, session 12).
    uncontended: () => settings.maxLimit,
    begin(running) {
      const ticket = limit.begin(running);
      armProbeDeadline();
      return () => limit.end(ticket);
    },
    stats: () => limit.stats(),
    onRaised(fn) {
      wake = fn;
    },
  };
}
