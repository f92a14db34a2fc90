// How many TLS handshakes the gateway runs at once (gateway/fairness/handshake-gate.ts).
// A fixed bound is wrong both ways: on loopback or a LAN the handshakes of a
// burst finish together, so a bound of 16 still put ~10 handshakes and
// their first requests in each event-loop turn (turns of 15-30 ms in the
// fairness bench, where an open connection's request needs several turns);
// across a WAN a handshake waits a round trip, and a bound of 1-2 would cap
// new connections at a few dozen a second (client-go gives up a TLS
// handshake after 10 s). So the bound follows the event loop's delay, as the
// flood pacer does: halved while the loop's mean delay is above its target
// (the handshakes make open connections wait), grown by one per window while
// it is not. AIMD: a burst is throttled within a few windows, and an idle
// loop lets the bound climb back to its ceiling. Pure: the adapter measures
// the delay and calls tick().

export interface HandshakeLimitSettings {
  /** The ceiling (fairness.concurrentHandshakes). */
  max: number;
  /** The floor: at least this many handshakes always run. */
  min: number;
}

export class HandshakeLimit {
  private limit: number;

  constructor(private readonly settings: HandshakeLimitSettings) {
    this.limit = settings.max;
  }

  current(): number {
    return this.limit;
  }

  /** Closes a window with its pressure (mean loop delay / target); returns the new bound. */
  tick(pressure: number): number {
    const { max, min } = this.settings;
    this.limit = pressure > 1 ? Math.max(min, Math.floor(this.limit / 2)) : Math.min(max, this.limit + 1);
    return this.limit;
  }

  /** At the ceiling: nothing to adapt while nobody waits. */
  atCeiling(): boolean {
    return this.limit >= this.settings.max;
  }
}
