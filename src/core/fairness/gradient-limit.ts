// A gateway-wide concurrency limit that follows latency, after Envoy's
// adaptive-concurrency gradient controller and Netflix concurrency-limits'
// Gradient2 (facts in docs/adr/0012-adaptive-gateway-seats.md):
//  - the baseline (minRTT) is measured by pinning the limit to a very low
//    concurrency for a few requests, at start and then periodically with
//    jitter, and again when the limit has sat at its floor for 5 windows
//    (Envoy); with a flood in progress no request ever runs alone otherwise;
//  - every window of completed requests is summarised by a percentile
//    (sampleRTT), and gradient = clamp(tolerance × minRTT / sampleRTT, ½, 2);
//  - latency above tolerance shrinks the limit by the gradient; latency within
//    it grows the limit by the gradient plus √limit headroom (Envoy's
//    headroom), but only when the window actually used at least half the
//    limit (Gradient2's "app-limited" rule: idle seats prove nothing), and
//    smoothed by half (GROWTH_SMOOTHING).
// Unlike Envoy there is no headroom while shrinking, so a CPU-bound gateway
// and upstream can settle at 2 or 3 seats instead of Envoy's floor of 4
// (L = ½L + √L). Pure: time comes from the injected clock, the probe jitter
// from the injected random source.

export interface GradientLimitSettings {
  /** The floor: never fewer seats than this. */
  minLimit: number;
  /** The ceiling (fairness.totalSeats). */
  maxLimit: number;
  /** Seats before the first window has been judged. */
  initialLimit: number;
  /** sampleRTT may reach this multiple of minRTT before the limit shrinks. */
  tolerance: number;
  /** Percentile summarising a window's and a probe's latencies (Envoy's default is 50). */
  percentile: number;
  /** A window closes once it is this old and holds windowSamples samples. */
  windowMs: number;
  windowSamples: number;
  /** Seats while measuring minRTT, and how many requests the measurement takes. */
  probeConcurrency: number;
  probeSamples: number;
  /** Time between probes, stretched by up to probeJitter (a fraction) at random. */
  probeIntervalMs: number;
  probeJitter: number;
  /**
   * A probe ends after this long even with fewer samples: one slow request
   * must not keep the whole gateway at probeConcurrency.
   */
  probeMaxMs: number;
}

export const DEFAULT_GRADIENT_SETTINGS: GradientLimitSettings = {
  minLimit: 1,
  maxLimit: 600,
  initialLimit: 4,
  tolerance: 1.5,
  percentile: 50,
  windowMs: 100,
  windowSamples: 10,
  probeConcurrency: 1,
  probeSamples: 10,
  probeIntervalMs: 30_000,
  probeJitter: 0.15,
  probeMaxMs: 1_000,
};

/** What a running request carries until it ends. */
export interface LimitTicket {
  readonly startedAt: number;
  /** Requests running gateway-wide when it started, itself included. */
  readonly inFlight: number;
  /** The phase it started in: a sample only counts in that phase. */
  readonly epoch: number;
}

export interface GradientLimitStats {
  limit: number;
  probing: boolean;
  minRttMs: number | undefined;
  sampleRttMs: number | undefined;
  gradient: number | undefined;
}

/** Envoy gauges the gradient between 0.5 and 2. */
const MIN_GRADIENT = 0.5;
const MAX_GRADIENT = 2;
/**
 * Growth takes half of what the gradient and headroom propose (Gradient2
 * smooths by 0.2 both ways): in a model of a CPU-bound server it halves the
 * overshoot above the settling point (p99 3x instead of 4x the base latency on
 * one core) while a remote upstream still reaches 600 seats within seconds.
 * Shrinking is not smoothed: queueing must stop at once.
 */
const GROWTH_SMOOTHING = 0.5;
/** Envoy re-measures minRTT after the limit sits at its floor for this many windows. */
const FLOOR_WINDOWS_BEFORE_PROBE = 5;

export class GradientLimit {
  private estimate: number;
  private probing = true;
  private epoch = 0;
  private samples: number[] = [];
  private windowStart: number;
  private peakInFlight = 0;
  private minRtt: number | undefined;
  private lastSampleRtt: number | undefined;
  private lastGradient: number | undefined;
  private nextProbeAt = 0;
  /** Set by the probe's first request: a probe with no traffic has no deadline. */
  private probeStartedAt: number | undefined;
  private windowsAtFloor = 0;

  constructor(
    private readonly settings: GradientLimitSettings,
    private readonly now: () => number,
    private readonly random: () => number = () => 0.5,
  ) {
    this.estimate = clamp(settings.initialLimit, settings.minLimit, settings.maxLimit);
    this.windowStart = now();
  }

  /** Seats for all tenants together, now. */
  limit(): number {
    if (this.probing) return Math.min(this.settings.probeConcurrency, this.settings.maxLimit);
    return Math.max(this.settings.minLimit, Math.floor(this.estimate));
  }

  /** A request got a seat; `inFlight` counts it. */
  begin(inFlight: number): LimitTicket {
    this.advance();
    this.maybeStartProbe();
    if (this.probing) this.probeStartedAt ??= this.now();
    return { startedAt: this.now(), inFlight, epoch: this.epoch };
  }

  /** A request that ran to completion: its time is a latency sample. */
  end(ticket: LimitTicket): void {
    if (ticket.epoch !== this.epoch) return;
    // A probe measures requests that ran alone; one admitted beside others just before the probe began did not.
    if (this.probing && ticket.inFlight > this.settings.probeConcurrency) return;
    this.samples.push(Math.max(0, this.now() - ticket.startedAt));
    this.peakInFlight = Math.max(this.peakInFlight, ticket.inFlight);
    if (this.probing) this.maybeEndProbe();
    else this.maybeCloseWindow();
  }

  /** When an unfinished probe must end (the adapter sets a timer for it); undefined when not probing. */
  probeDeadline(): number | undefined {
    return this.probing && this.probeStartedAt !== undefined ? this.probeStartedAt + this.settings.probeMaxMs : undefined;
  }

  /**
   * Applies what time alone decides: an overdue probe ends with the samples it
   * has (none: the old minRTT stays, or, before any, the initial limit with a
   * new probe soon). Returns true when the limit changed.
   */
  advance(): boolean {
    const deadline = this.probeDeadline();
    if (deadline === undefined || this.now() < deadline) return false;
    const before = this.limit();
    this.finishProbe();
    return this.limit() !== before;
  }

  stats(): GradientLimitStats {
    return { limit: this.limit(), probing: this.probing, minRttMs: this.minRtt, sampleRttMs: this.lastSampleRtt, gradient: this.lastGradient };
  }

  private maybeStartProbe(): void {
    if (this.probing || this.now() < this.nextProbeAt) return;
    this.probing = true;
    this.newPhase();
  }

  private maybeEndProbe(): void {
    if (this.samples.length >= this.settings.probeSamples) this.finishProbe();
  }

  private finishProbe(): void {
    const { probeIntervalMs, probeJitter } = this.settings;
    const measured = this.samples.length > 0;
    if (measured) this.minRtt = percentile(this.samples, this.settings.percentile);
    this.probing = false;
    this.probeStartedAt = undefined;
    this.windowsAtFloor = 0;
    // Without any baseline yet, try again soon rather than judge windows against nothing.
    const interval = this.minRtt === undefined ? probeIntervalMs / 10 : probeIntervalMs;
    this.nextProbeAt = this.now() + interval * (1 + probeJitter * clamp(this.random(), 0, 1));
    this.newPhase();
  }

  private maybeCloseWindow(): void {
    const { windowMs, windowSamples, tolerance, minLimit, maxLimit } = this.settings;
    if (this.samples.length < windowSamples || this.now() - this.windowStart < windowMs) return;
    const sampleRtt = percentile(this.samples, this.settings.percentile);
    // No baseline yet cannot judge anything: hold (a probe comes soon).
    const gradient = this.minRtt === undefined ? 1 : buildGradient(tolerance * this.minRtt, sampleRtt);
    const appLimited = this.minRtt === undefined || this.peakInFlight < this.estimate / 2;
    let next = this.estimate;
    if (gradient < 1) next = this.estimate * gradient;
    else if (!appLimited) next = this.estimate + GROWTH_SMOOTHING * (this.estimate * (gradient - 1) + Math.sqrt(this.estimate));
    this.estimate = clamp(next, minLimit, maxLimit);
    this.lastSampleRtt = sampleRtt;
    this.lastGradient = gradient;
    this.windowsAtFloor = this.limit() <= minLimit && gradient < 1 ? this.windowsAtFloor + 1 : 0;
    // Stuck at the floor with latency still too high: the baseline itself may have moved (a slower upstream).
    if (this.windowsAtFloor >= FLOOR_WINDOWS_BEFORE_PROBE) this.nextProbeAt = this.now();
    this.newPhase();
  }

  private newPhase(): void {
    this.epoch++;
    this.samples = [];
    this.peakInFlight = 0;
    this.windowStart = this.now();
  }
}

/** Envoy's gradient: how far latency is inside (above 1) or beyond (below 1) what is tolerated. */
export function buildGradient(toleratedMs: number, sampleMs: number): number {
  // Both zero (a clock too coarse for the requests): nothing is queueing.
  if (sampleMs <= 0) return MAX_GRADIENT;
  return clamp(toleratedMs / sampleMs, MIN_GRADIENT, MAX_GRADIENT);
}

/** Nearest-rank percentile of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((clamp(p, 0, 100) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)] ?? 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
