// Seats and queues, per tenant, with fair dispatch. A request runs when its
// tenant has a free seat and the gateway as a whole has one; otherwise it waits
// in its tenant's bounded queue. When a seat frees up, queues are served round
// robin from where the last dispatch stopped, so a tenant with a thousand
// waiting requests gets one turn like a tenant with one (APF's fair queuing,
// with one queue per tenant instead of shuffle sharding: tenants are known and
// few enough to give each its own). No I/O and no timers but the queue
// deadline, so the rules are unit-tested without a server.
import { RecentTenants } from '../../core/fairness/recent-tenants.ts';
import type { QueueLimits } from './fairness-config.ts';

export type RejectReason = 'queue-full' | 'queue-timeout';

export class RejectedError extends Error {
  constructor(readonly reason: RejectReason, readonly running: number, readonly queued: number) {
    super(reason === 'queue-full' ? 'queue full' : 'timed out waiting for a seat');
    this.name = 'RejectedError';
  }
}

/**
 * Gives the seat back; calling it twice is harmless. `completed`: the request
 * ran to its end, so its time is a latency sample for an adaptive limit (not
 * a long-running request handing its seat back, nor a client that hung up).
 */
export type Release = (completed?: boolean) => void;

/**
 * The seats for all tenants together: a fixed number, or one that adapts to
 * latency (adaptive-seats.ts). begin() is told the running count (this
 * request included) and returns what to call when the request completes.
 * A limit with a ceiling applies only while several tenants are active
 * (ADR 0012, session 12): a tenant alone gets the ceiling; its requests are
 * still samples, so the limit a neighbour meets on arrival is a learned one.
 */
export interface SeatLimit {
  current(): number;
  begin(running: number): (() => void) | undefined;
  /** The seats when only one tenant is active; absent: current() always applies (a fixed limit). */
  uncontended?(): number;
}

export interface FairLimiterOptions {
  /** The monotonic clock (ms) that dates tenants' activity. */
  now?: () => number;
  /** Another tenant seen within this long makes the gateway contended. */
  contentionWindowMs?: number;
}

/**
 * Per-tenant admission on top of seats (flood-pacing.ts): may hold a
 * flooding tenant's next start back even with seats free. It is told each
 * tenant's running + queued count as it changes.
 */
export interface TenantPacer {
  observe(tenant: string, outstanding: number): void;
  mayStart(tenant: string, running: number): boolean;
  started(tenant: string): void;
}

const fixedLimit = (seats: number): SeatLimit => ({ current: () => seats, begin: () => undefined });

interface Waiter {
  limits: QueueLimits;
  resolve(release: Release): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout | undefined;
}

interface Flow {
  running: number;
  queue: Waiter[];
}

export interface FairLimiterStats {
  running: number;
  queued: number;
  /** Gateway-wide seats now. */
  limit: number;
  tenants: Record<string, { running: number; queued: number }>;
}

export class FairLimiter {
  private readonly flows = new Map<string, Flow>();
  private running = 0;
  /** Tenants with waiters, in round-robin order; the head is served next. */
  private ring: string[] = [];

  private readonly seatLimit: SeatLimit;
  private readonly recent: RecentTenants;
  private readonly now: () => number;

  constructor(totalSeats: number | SeatLimit, private readonly pacer?: TenantPacer, options: FairLimiterOptions = {}) {
    this.seatLimit = typeof totalSeats === 'number' ? fixedLimit(totalSeats) : totalSeats;
    this.recent = new RecentTenants(options.contentionWindowMs);
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * A seat for one request of `tenant`, at once or after a wait. Rejects with
   * RejectedError when the queue is full or the wait times out; with the
   * signal's reason when the client gives up first.
   */
  acquire(tenant: string, limits: QueueLimits, signal?: AbortSignal): Promise<Release> {
    const now = this.tryAcquire(tenant, limits);
    if (now) return Promise.resolve(now);
    const flow = this.flowOf(tenant);
    if (flow.queue.length >= limits.queueLength) {
      this.forgetIfIdle(tenant, flow);
      return Promise.reject(new RejectedError('queue-full', flow.running, flow.queue.length));
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { limits, resolve, reject, timer: undefined };
      const leave = (err: Error): void => {
        const at = flow.queue.indexOf(waiter);
        if (at < 0) return;
        flow.queue.splice(at, 1);
        clearTimeout(waiter.timer);
        if (flow.queue.length === 0) this.ring = this.ring.filter((t) => t !== tenant);
        this.pacer?.observe(tenant, flow.running + flow.queue.length);
        this.forgetIfIdle(tenant, flow);
        reject(err);
      };
      waiter.timer = setTimeout(() => leave(new RejectedError('queue-timeout', flow.running, flow.queue.length - 1)), limits.queueTimeoutMs);
      // The server keeps the process alive, not a queued request's deadline.
      waiter.timer.unref();
      signal?.addEventListener('abort', () => leave(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
      flow.queue.push(waiter);
      if (flow.queue.length === 1) this.ring.push(tenant);
    });
  }

  /**
   * A seat at once when one is free and none of the tenant's requests waits; undefined otherwise
   * (then acquire(), which queues). The common case needs no promise, abort signal or close listener.
   */
  tryAcquire(tenant: string, limits: QueueLimits): Release | undefined {
    const flow = this.flowOf(tenant);
    const now = this.now();
    this.recent.seen(tenant, now);
    this.pacer?.observe(tenant, flow.running + flow.queue.length + 1);
    if (flow.queue.length === 0 && this.canRun(tenant, flow, limits, now)) return this.start(tenant, flow);
    // A caller that does not go on to acquire() leaves no idle flow behind (it would read as contention).
    this.forgetIfIdle(tenant, flow);
    return undefined;
  }

  stats(): FairLimiterStats {
    const tenants: FairLimiterStats['tenants'] = {};
    let queued = 0;
    for (const [id, flow] of this.flows) {
      tenants[id] = { running: flow.running, queued: flow.queue.length };
      queued += flow.queue.length;
    }
    return { running: this.running, queued, tenants, limit: this.limit(this.now()) };
  }

  /** Would `tenant`'s next request be refused at once (its queue is full)? */
  queueFull(tenant: string, limits: QueueLimits): boolean {
    const flow = this.flows.get(tenant);
    return flow !== undefined && flow.queue.length >= limits.queueLength && flow.queue.length > 0;
  }

  /** Serves waiting requests after the gateway-wide limit rose by itself (an adaptive limit's or a pacer's timer). */
  wake(): void {
    this.dispatch(this.now());
  }

  // One clock read per acquire, release or wake, passed down: `now` is the time of that call.
  private canRun(tenant: string, flow: Flow, limits: QueueLimits, now: number): boolean {
    return flow.running < limits.seats && this.running < this.limit(now) && (this.pacer?.mayStart(tenant, flow.running) ?? true);
  }

  /**
   * Several tenants running or queued, or another seen within the window: then a neighbour's
   * latency is at stake and an adaptive limit applies. A tenant alone is held by its own seats only.
   */
  private contended(now: number): boolean {
    return this.flows.size > 1 || this.recent.several(now);
  }

  /** Gateway-wide seats at `now`. */
  private limit(now: number): number {
    if (this.seatLimit.uncontended && !this.contended(now)) return this.seatLimit.uncontended();
    return this.seatLimit.current();
  }

  private start(tenant: string, flow: Flow): Release {
    flow.running++;
    this.running++;
    this.pacer?.started(tenant);
    // Samples and probes go on while a tenant is alone (a probe pins only the adaptive limit, which does not bind
    // then): when a neighbour arrives, the limit it meets is what the lone tenant's latency taught, not a cold start.
    const completed = this.seatLimit.begin(this.running);
    let released = false;
    return (done = false) => {
      if (released) return;
      released = true;
      flow.running--;
      this.running--;
      const now = this.now();
      this.recent.seen(tenant, now);
      this.pacer?.observe(tenant, flow.running + flow.queue.length);
      // Measured before dispatch: a limit that grows on this sample admits the next waiters at once.
      if (done) completed?.();
      this.forgetIfIdle(tenant, flow);
      this.dispatch(now);
    };
  }

  /**
   * Serves waiting tenants while seats are free: the tenant running the fewest
   * requests goes first, ties in round-robin order. A tenant that sends one
   * request at a time therefore gets the very next seat even while a flooding
   * tenant holds all the others (APF's fair queuing likewise serves the queue
   * that has had the least service).
   */
  private dispatch(now: number): void {
    while (this.running < this.limit(now)) {
      const at = this.nextRunnable(now);
      if (at < 0) return;
      const tenant = this.ring[at] as string;
      this.ring.splice(at, 1);
      const flow = this.flowOf(tenant);
      const head = flow.queue.shift() as Waiter;
      clearTimeout(head.timer);
      if (flow.queue.length > 0) this.ring.push(tenant);
      head.resolve(this.start(tenant, flow));
    }
  }

  /** Index in the ring of the runnable tenant with the fewest running requests; -1 if none can run. */
  private nextRunnable(now: number): number {
    let best = -1;
    let bestRunning = Infinity;
    for (let i = 0; i < this.ring.length; i++) {
      const tenant = this.ring[i] as string;
      const flow = this.flowOf(tenant);
      const head = flow.queue[0];
      // A tenant at its own share keeps its place; others go first.
      if (!head || flow.running >= bestRunning || !this.canRun(tenant, flow, head.limits, now)) continue;
      best = i;
      bestRunning = flow.running;
    }
    return best;
  }

  private flowOf(tenant: string): Flow {
    let flow = this.flows.get(tenant);
    if (!flow) {
      flow = { running: 0, queue: [] };
      this.flows.set(tenant, flow);
    }
    return flow;
  }

  // Idle flows are dropped so a gateway that saw ten thousand tenants does not keep ten thousand entries.
  private forgetIfIdle(tenant: string, flow: Flow): void {
    if (flow.running === 0 && flow.queue.length === 0) this.flows.delete(tenant);
  }
}
