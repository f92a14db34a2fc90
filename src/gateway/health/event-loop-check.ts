// "event-loop" for /livez: a process whose event loop stalls for seconds (a
// runaway synchronous loop, a huge JSON parse per request) answers nothing in
// time, and restarting it is the cure. A timer ticks every half second and
// records how late it fired; the check fails while a recent tick was later than
// the threshold. Cheap: one timer, no histogram. The timer is unref'd, so it
// never keeps the process alive.
import { namedCheck, type HealthCheck } from './health-check.ts';

export interface EventLoopCheckOptions {
  /** A tick this late fails the check (default 5 s: liveness failures restart the process, so be sure). */
  thresholdMs?: number;
  /** How long a late tick keeps the check failing (default 30 s). */
  windowMs?: number;
  intervalMs?: number;
  now?: () => number;
}

export interface EventLoopWatch {
  check: HealthCheck;
  /** Records a tick (the timer calls it; tests call it with a clock of their own). */
  tick(): void;
  stop(): void;
}

export function startEventLoopWatch(options: EventLoopCheckOptions = {}): EventLoopWatch {
  const thresholdMs = options.thresholdMs ?? 5_000;
  const windowMs = options.windowMs ?? 30_000;
  const intervalMs = options.intervalMs ?? 500;
  const now = options.now ?? Date.now;
  let expected = now() + intervalMs;
  let stall: { at: number; lateMs: number } | undefined;

  function tick(): void {
    const at = now();
    const lateMs = at - expected;
    expected = at + intervalMs;
    if (lateMs >= thresholdMs) stall = { at, lateMs };
  }
  const timer = setInterval(tick, intervalMs);
  timer.unref();

  return {
    check: namedCheck('event-loop', () => {
      if (!stall || now() - stall.at > windowMs) return undefined;
      return `event loop stalled for ${stall.lateMs} ms ${Math.round((now() - stall.at) / 1000)} s ago`;
    }),
    tick,
    stop: () => clearInterval(timer),
  };
}
