// A discrete-event model of a gateway behind a GradientLimit, for the unit
// tests: `clients` closed-loop callers (each sends its next request as soon
// as its last one ends, as the bench's flooder does) and a server whose
// latency is a function of how many requests run at once. A CPU-bound
// gateway+upstream is latency = base × max(1, running / cores); a remote
// upstream is a constant round trip.
import { GradientLimit, type GradientLimitSettings } from '../../../../src/core/fairness/gradient-limit.ts';

export interface SimulationResult {
  /** The limit after each completed request, from warmupMs on. */
  limits: number[];
  /** Latencies of requests started from warmupMs on. */
  latencies: number[];
  completed: number;
  maxRunning: number;
}

export function simulate(options: {
  settings: GradientLimitSettings;
  clients: number;
  latencyAt(running: number): number;
  durationMs: number;
  warmupMs: number;
}): SimulationResult {
  let now = 0;
  const limit = new GradientLimit(options.settings, () => now, () => 0.5);
  const running: { endsAt: number; done: () => void; startedAt: number }[] = [];
  let waiting = options.clients;
  const result: SimulationResult = { limits: [], latencies: [], completed: 0, maxRunning: 0 };
  const admit = (): void => {
    while (waiting > 0 && running.length < limit.limit()) {
      waiting--;
      const ticket = limit.begin(running.length + 1);
      const latency = options.latencyAt(running.length + 1);
      running.push({ endsAt: now + latency, startedAt: now, done: () => limit.end(ticket) });
      result.maxRunning = Math.max(result.maxRunning, running.length);
    }
  };
  admit();
  while (now < options.durationMs) {
    const deadline = limit.probeDeadline();
    let next = 0;
    for (let i = 1; i < running.length; i++) if ((running[i]?.endsAt ?? Infinity) < (running[next]?.endsAt ?? Infinity)) next = i;
    const ending = running[next];
    if (!ending) break;
    if (deadline !== undefined && deadline < ending.endsAt) {
      now = deadline;
      limit.advance();
      admit();
      continue;
    }
    now = ending.endsAt;
    running.splice(next, 1);
    ending.done();
    waiting++;
    result.completed++;
    if (now >= options.warmupMs) {
      result.limits.push(limit.limit());
      if (ending.startedAt >= options.warmupMs) result.latencies.push(now - ending.startedAt);
    }
    admit();
  }
  return result;
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}
