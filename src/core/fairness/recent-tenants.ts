// Whether more than one tenant has used the gateway lately: the test that
// decides if the adaptive gateway-wide limit (gradient-limit.ts) applies
// (ADR 0012, amendment of session 12). The limit exists to keep a neighbour's
// latency near its baseline; with one tenant alone there is no neighbour, and
// on a CPU-bound path the limit it settles at (2-4 seats) left the gateway and
// upstream partly idle under a lone tenant's write burst. Only the two most
// recent distinct tenants are kept: "someone else within the window" needs no
// more. Pure: the caller passes the time.

/** A tenant seen within this long still counts (the flood pacer's activeWindowMs, core/fairness/flood-pacer.ts). */
export const DEFAULT_CONTENTION_WINDOW_MS = 1_000;

interface Sighting {
  tenant: string;
  at: number;
}

export class RecentTenants {
  private latest: Sighting | undefined;
  /** The most recent sighting of a tenant other than latest's. */
  private previous: Sighting | undefined;

  constructor(private readonly windowMs: number = DEFAULT_CONTENTION_WINDOW_MS) {}

  /** A request of `tenant` arrived or ended at `at`. */
  seen(tenant: string, at: number): void {
    if (this.latest?.tenant === tenant) {
      this.latest.at = at;
      return;
    }
    this.previous = this.latest;
    this.latest = { tenant, at };
  }

  /** Were two or more tenants seen within the window before `now`? */
  several(now: number): boolean {
    return this.previous !== undefined && now - this.previous.at <= this.windowMs;
  }
}
