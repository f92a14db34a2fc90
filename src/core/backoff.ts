// Exponential backoff with jitter, as client-go's reflector uses between failed
// list/watch attempts: many gateway replicas reconnecting to a restarted
// upstream must not arrive in lockstep.
export interface BackoffOptions {
  initialMs?: number; // default 100
  maxMs?: number; // default 5000
  random?: () => number;
}

export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 100;
    this.maxMs = options.maxMs ?? 5_000;
    this.random = options.random ?? Math.random;
  }

  /** The next delay: doubling from initialMs, capped at maxMs, then jittered into [½, 1] of that. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return Math.round(ceiling * (0.5 + this.random() / 2));
  }

  reset(): void {
    this.attempt = 0;
  }
}
