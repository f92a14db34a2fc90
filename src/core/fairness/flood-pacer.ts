// Pacing for a tenant that floods while another tenant is active (issue 6).
// Seats alone cannot keep a neighbour's latency near its baseline: the
// limiter is work-conserving, so a flooder that keeps its queue full keeps
// every seat busy, and the gateway's one event loop (and the CPUs under it)
// runs flat out. Measured under the fairness bench: event-loop utilisation
// 0.99-1.0, event-loop lag p50 ~7.5 ms, while the quiet tenant waited ~1.5 ms
// for a seat; its time went to waiting behind the flooder's callbacks. A
// queue at utilisation ρ adds ~ρ/(1-ρ) service times of waiting, so the
// flooder must be held below full utilisation while someone else is served.
//
// The rule, judged once per window from what the adapter measured:
//  - a tenant is *heavy* when it had more than `heavyOutstanding` requests
//    running or queued at once in the window (it asks for more than it gets);
//  - pacing is on only while some tenant active within `activeWindowMs` is not
//    heavy: a lone tenant, or only flooders, get the whole gateway
//    (work-conserving), since there is nobody to protect;
//  - while on, every heavy tenant gets the same admission rate (a token
//    bucket): divided by the pressure (at most halved) while the pressure is
//    above 1, grown by `increase` (plus one request/s) while it is between ½
//    and 1, and doubled while it is below ½ — AIMD with TCP's slow start: a
//    contention spell can be a few seconds, and a linear climb back from a
//    GC pause's halving would starve the flooder for most of it;
//  - doubling stops at the rate the last decrease left (TCP's ssthresh):
//    above it the climb is additive. Doubling all the way overshot: in the
//    fairness bench the rate went from ~950 to ~2,000 requests/s in a few
//    windows, and each overshoot was a 100 ms window of 5-11 ms loop delay
//    (the neighbour's slowest requests), then a halving, then doubling again.
//    The cap expires after `slowStartHoldWindows` windows without a
//    decrease: a decrease at a flood's onset (TLS handshakes, not the
//    flooder's admitted requests, raised the delay) otherwise capped the
//    doubling at a few dozen requests/s, and the additive climb from there
//    took seconds (the flooder got ~60 requests/s while quiet ran);
//  - it starts from what the heavy tenants were getting, scaled the same way;
//  - a tenant that turns heavy while a light tenant is active is paced at
//    once, not at the window's end: a flood's first 100 ms (200 requests
//    at once in the bench) was enough to set the neighbour's p99. It starts
//    at half what it got in the previous window (the floor for a flood that
//    has just begun) and grows from there.
// Pressure is measured/target of what the neighbours pay; the adapter uses
// the gateway's event-loop delay (how long a ready callback waits for the
// loop), not its utilisation: a quiet tenant's own sequential requests keep
// the loop busy without making each other wait, the flooder's do not.
// Pure: the clock is injected, pressure is passed in.

export interface FloodPacerSettings {
  /** How often the rate is judged. */
  windowMs: number;
  /** Running + queued beyond this in one window makes a tenant heavy. */
  heavyOutstanding: number;
  /** A tenant seen within this long counts as active. */
  activeWindowMs: number;
  /** The floor of a heavy tenant's rate, requests/s. */
  minRate: number;
  /** Growth per window below target, as a fraction of the rate. */
  increase: number;
  /** Tokens a heavy tenant may save up (a short burst). */
  burst: number;
  /** Windows without a decrease after which doubling is no longer capped at the last decrease. */
  slowStartHoldWindows: number;
  /**
   * Requests a paced tenant may have running at once (0: no cap). Every one of them is work that a
   * neighbour's request waits behind at each hop (the gateway, then the upstream's own queue, which
   * the gateway's loop delay does not see), so this bounds what a flood adds to a neighbour's latency.
   */
  heavyConcurrency: number;
}

export const DEFAULT_PACER_SETTINGS: FloodPacerSettings = {
  windowMs: 100,
  heavyOutstanding: 4,
  activeWindowMs: 1_000,
  minRate: 5,
  increase: 0.1,
  burst: 2,
  slowStartHoldWindows: 10,
  heavyConcurrency: 1,
};

interface TenantState {
  lastSeen: number;
  outstanding: number;
  peakOutstanding: number;
  startedInWindow: number;
  /** Requests/s it started in the previous window. */
  previousRate: number;
  tokens: number;
  refilledAt: number;
}

export interface FloodPacerStats {
  /** Requests/s each heavy tenant may start; undefined while pacing is off. */
  rate: number | undefined;
  heavy: string[];
  pressure: number;
}

export class FloodPacer {
  private readonly tenants = new Map<string, TenantState>();
  private heavy = new Set<string>();
  private rate: number | undefined;
  private windowStart: number;
  private lastPressure = 0;
  /** Doubling stops here (the rate the last decrease left); Infinity until the first. */
  private slowStartBelow = Infinity;
  private windowsSinceDecrease = 0;

  constructor(private readonly settings: FloodPacerSettings, private readonly now: () => number) {
    this.windowStart = now();
  }

  /** A tenant's requests running + queued changed (or a request arrived). */
  observe(tenant: string, outstanding: number): void {
    const state = this.stateOf(tenant);
    state.lastSeen = this.now();
    state.outstanding = outstanding;
    if (outstanding > state.peakOutstanding) state.peakOutstanding = outstanding;
    if (outstanding > this.settings.heavyOutstanding && !this.heavy.has(tenant) && this.someoneLightBesides(tenant)) {
      this.heavy.add(tenant);
      if (this.rate === undefined) this.slowStartBelow = Infinity;
      this.rate = Math.max(this.settings.minRate, Math.min(this.rate ?? Infinity, state.previousRate / 2));
      this.refill(state);
      state.tokens = Math.min(this.settings.burst, 1);
    }
  }

  /** May `tenant` start a request now, with `running` of its requests running? Only a paced heavy tenant can be told no. */
  mayStart(tenant: string, running = 0): boolean {
    if (!this.isPaced(tenant)) return true;
    if (this.settings.heavyConcurrency > 0 && running >= this.settings.heavyConcurrency) return false;
    const state = this.stateOf(tenant);
    this.refill(state);
    return state.tokens >= 1;
  }

  /** `tenant` started a request (it had been allowed to). */
  started(tenant: string): void {
    const state = this.stateOf(tenant);
    state.startedInWindow++;
    if (!this.isPaced(tenant)) return;
    this.refill(state);
    state.tokens = Math.max(0, state.tokens - 1);
  }

  /** When the next paced tenant gets a token (ms on the clock), or undefined when nobody is paced. */
  nextTokenAt(): number | undefined {
    if (this.rate === undefined) return undefined;
    let next: number | undefined;
    for (const tenant of this.heavy) {
      const state = this.stateOf(tenant);
      this.refill(state);
      const at = state.tokens >= 1 ? this.now() : this.now() + ((1 - state.tokens) / this.rate) * 1000;
      next = next === undefined ? at : Math.min(next, at);
    }
    return next;
  }

  /**
   * Closes the window with the pressure over it (measured / target: above 1,
   * the neighbours wait too long) and judges the rate. Returns true when
   * pacing loosened (waiters may be served now).
   */
  tick(pressure: number): boolean {
    const now = this.now();
    const seconds = Math.max(1e-3, (now - this.windowStart) / 1000);
    this.windowStart = now;
    this.lastPressure = pressure;
    const before = this.rate;
    const heavy = new Set<string>();
    let light = 0;
    let heavyStarts = 0;
    for (const [tenant, state] of this.tenants) {
      if (state.outstanding === 0 && now - state.lastSeen > this.settings.activeWindowMs) {
        this.tenants.delete(tenant);
        continue;
      }
      if (state.peakOutstanding > this.settings.heavyOutstanding) {
        heavy.add(tenant);
        heavyStarts += state.startedInWindow;
      } else light++;
      // A queue that sat still all window is still there: the next window starts from it.
      state.peakOutstanding = state.outstanding;
      state.previousRate = state.startedInWindow / seconds;
      state.startedInWindow = 0;
    }
    this.heavy = heavy;
    if (heavy.size === 0 || light === 0) {
      this.rate = undefined;
      return before !== undefined;
    }
    const s = this.settings;
    const over = pressure > 1;
    const scale = over ? Math.max(0.5, 1 / pressure) : 1;
    if (this.rate === undefined) {
      // Start from what they were getting: pacing begins where the flood stood.
      this.rate = ((heavyStarts / heavy.size) / seconds) * scale;
      this.slowStartBelow = over ? this.rate : Infinity;
      this.windowsSinceDecrease = 0;
      for (const tenant of heavy) this.stateOf(tenant).tokens = Math.min(s.burst, 1);
    } else if (over) {
      this.rate *= scale;
      this.slowStartBelow = Math.max(s.minRate, this.rate);
      this.windowsSinceDecrease = 0;
    } else {
      if (++this.windowsSinceDecrease >= s.slowStartHoldWindows) this.slowStartBelow = Infinity;
      if (pressure < 0.5 && this.rate < this.slowStartBelow) this.rate = Math.min(this.rate * 2, this.slowStartBelow);
      else this.rate = this.rate * (1 + s.increase) + 1;
    }
    this.rate = Math.max(s.minRate, this.rate);
    return before !== undefined && this.rate > before;
  }

  /** No tenant is tracked: the adapter may stop its window timer. */
  idle(): boolean {
    return this.tenants.size === 0;
  }

  stats(): FloodPacerStats {
    return { rate: this.rate, heavy: [...this.heavy], pressure: this.lastPressure };
  }

  private someoneLightBesides(tenant: string): boolean {
    const now = this.now();
    for (const [other, state] of this.tenants) {
      if (other === tenant || this.heavy.has(other)) continue;
      if (state.outstanding > 0 || now - state.lastSeen <= this.settings.activeWindowMs) return true;
    }
    return false;
  }

  private isPaced(tenant: string): boolean {
    return this.rate !== undefined && this.heavy.has(tenant);
  }

  private refill(state: TenantState): void {
    const now = this.now();
    if (this.rate !== undefined) state.tokens = Math.min(this.settings.burst, state.tokens + ((now - state.refilledAt) / 1000) * this.rate);
    state.refilledAt = now;
  }

  private stateOf(tenant: string): TenantState {
    let state = this.tenants.get(tenant);
    if (!state) {
      state = { lastSeen: this.now(), outstanding: 0, peakOutstanding: 0, startedInWindow: 0, previousRate: 0, tokens: 0, refilledAt: this.now() };
      this.tenants.set(tenant, state);
    }
    return state;
  }
}
