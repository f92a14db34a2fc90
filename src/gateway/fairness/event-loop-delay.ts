// The gateway's event-loop delay, as the fairness adapters read it (flood
// pacing, the handshake gate): how long, on average, a timer that was due
// waited for the loop. The histogram's 1 ms timer costs every request (about
// 0.3 ms on a sequential GET in the gateway bench), so each user starts it
// only while it has something to adapt, and stops it after.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface EventLoopDelay {
  /** Mean delay (ms) since the previous call, beyond the sampling timer's own period; 0 while not started. */
  sample(): number;
  start(): void;
  stop(): void;
}

const LAG_RESOLUTION_MS = 1;

export function eventLoopDelay(): EventLoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  let enabled = false;
  return {
    sample() {
      const mean = enabled && histogram.count > 0 ? histogram.mean / 1e6 - LAG_RESOLUTION_MS : 0;
      histogram.reset();
      return Math.max(0, mean);
    },
    start() {
      if (enabled) return;
      histogram.reset();
      histogram.enable();
      enabled = true;
    },
    stop() {
      histogram.disable();
      enabled = false;
    },
  };
}
