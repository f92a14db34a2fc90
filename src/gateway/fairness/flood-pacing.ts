// The flood pacer (core/fairness/flood-pacer.ts) behind the FairLimiter's
// TenantPacer. This adapter owns what the core cannot: the clock, the
// pressure (the gateway's event-loop delay: how long, on average over the
// window, a timer that was due waited for the loop, over `targetLagMs`), the
// window timer, and the timer that wakes the limiter when a paced tenant's
// next token is due. Event-loop delay rather than utilisation: in the
// fairness bench a quiet tenant alone kept the loop 60-80% busy with its own
// sequential requests (which never wait for each other), so a utilisation
// target starved the flooder for no gain; the delay is what a neighbour's
// request pays at each hop. The timers run only while some tenant is tracked.
import { performance } from 'node:perf_hooks';
import { DEFAULT_PACER_SETTINGS, FloodPacer, type FloodPacerSettings, type FloodPacerStats } from '../../core/fairness/flood-pacer.ts';
import type { TenantPacer } from './fair-limiter.ts';
import { eventLoopDelay } from './event-loop-delay.ts';

export interface FloodPacing extends TenantPacer {
  stats(): FloodPacerStats;
  /** Called when paced waiters may now start (a token came due, or pacing loosened). */
  onReady(wake: () => void): void;
}

export interface FloodPacingOptions {
  settings?: Partial<FloodPacerSettings>;
  now?: () => number;
  /** Mean event-loop delay (ms) the neighbours may pay; 1 by default. */
  targetLagMs?: number;
  /** Mean event-loop delay (ms) since the previous call; default: this event loop's. */
  lag?: () => number;
}

export function createFloodPacing(options: FloodPacingOptions = {}): FloodPacing {
  const now = options.now ?? (() => performance.now());
  const settings: FloodPacerSettings = { ...DEFAULT_PACER_SETTINGS, ...options.settings };
  const pacer = new FloodPacer(settings, now);
  const targetLagMs = options.targetLagMs ?? DEFAULT_TARGET_LAG_MS;
  const delay = options.lag ? { sample: options.lag, start: () => undefined, stop: () => undefined } : eventLoopDelay();
  let wake: () => void = () => undefined;
  let windowTimer: NodeJS.Timeout | undefined;
  let tokenTimer: NodeJS.Timeout | undefined;
  const startWindows = (): void => {
    if (windowTimer) return;
    delay.sample(); // the first window starts now
    windowTimer = setInterval(() => {
      if (pacer.tick(delay.sample() / targetLagMs)) wake();
      // The delay histogram's 1 ms timer costs every request (about 0.3 ms on a sequential GET
      // in the gateway bench): it runs only while some tenant is heavy, when pacing may need it.
      if (pacer.stats().heavy.length > 0) delay.start();
      else delay.stop();
      if (pacer.idle()) {
        clearInterval(windowTimer);
        windowTimer = undefined;
        delay.stop();
      }
    }, settings.windowMs);
    // The server keeps the process alive, not the pacer.
    windowTimer.unref();
  };
  const armTokenTimer = (): void => {
    const at = pacer.nextTokenAt();
    if (at === undefined || tokenTimer) return;
    tokenTimer = setTimeout(() => {
      tokenTimer = undefined;
      wake();
    }, Math.max(1, at - now()));
    tokenTimer.unref();
  };
  return {
    observe(tenant, outstanding) {
      pacer.observe(tenant, outstanding);
      startWindows();
      if (outstanding > settings.heavyOutstanding) delay.start();
    },
    mayStart(tenant, running) {
      if (pacer.mayStart(tenant, running)) return true;
      armTokenTimer();
      return false;
    },
    started: (tenant) => pacer.started(tenant),
    stats: () => pacer.stats(),
    onReady(fn) {
      wake = fn;
    },
  };
}

export const DEFAULT_TARGET_LAG_MS = 1;
