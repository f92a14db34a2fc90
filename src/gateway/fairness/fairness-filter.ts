// The fairness step of the chain: a request waits for a seat in its tenant's
// share, and gives it back when its response is over (the 'close' of the
// response, not the end of the handler: a proxied answer is still streaming
// when the handler returns). It runs as soon as the tenant is known (right
// after authentication), so a refusal costs no request parsing, RBAC or
// translation. Long-running requests pass through the queue like any other
// (so a tenant cannot open watches faster than its share admits) but give the
// seat back once they are known to be long-running (Seat.release), as APF
// releases a watch's seat once it is set up. A refused connection is not read
// again until its Retry-After has passed (throttle-socket.ts). The seats for
// all tenants together follow latency (adaptive-seats.ts) unless turned off.
// A seat is given back as soon as the response is ended by its writer
// (res.end), not when a slow client has read the last byte: what is left
// then is the network's time, not the gateway's or the upstream's, and it
// would also poison the latency samples.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TenantInfo } from '../../tenants/tenant-directory.ts';
import { DEFAULT_TOTAL_SEATS, buildTenantLimits, type FairnessConfig } from './fairness-config.ts';
import { FairLimiter, RejectedError, type FairLimiterStats, type Release, type RejectReason } from './fair-limiter.ts';
import { createAdaptiveSeats, type AdaptiveSeats } from './adaptive-seats.ts';
import { createFloodPacing, type FloodPacing } from './flood-pacing.ts';
import { buildTooManyRequests } from './too-many-requests.ts';
import { DEFAULT_HOLD_SPREAD, throttleAfterResponse } from './throttle-socket.ts';
import { createTenantSlots } from './tenant-slots.ts';
import { createTenantConnections } from './tenant-connections.ts';
import { createTenantBacklogs } from './tenant-backlog.ts';

/** A held seat; it is given back when the response closes, or earlier by release(). */
export interface Seat {
  /** Gives the seat back now (a long-running request, once set up); harmless twice. */
  release(): void;
}

export interface Fairness {
  /**
   * Resolves once the request holds a seat; throws a 429 ApiError when the
   * tenant's share is used up (and then holds the connection for Retry-After).
   */
  enter(req: IncomingMessage, res: ServerResponse, tenant: TenantInfo): Promise<Seat>;
  /**
   * A seat for an upgraded connection (exec, attach, port-forward), held until
   * released (its socket closes): at most the tenant's seats at once; beyond,
   * a 429 ApiError with Retry-After at once (a session is not worth queueing:
   * one that ends could take minutes). Separate from the request seats, so
   * open sessions never starve the tenant's ordinary requests.
   */
  enterUpgrade(tenant: TenantInfo): Seat;
  /** Upgraded connections a tenant holds now. */
  openUpgrades(tenantId: string): number;
  /**
   * A long-running request (watch, log follow, proxy) of the tenant, once it is known to be one: held until
   * released (its response closes). Beyond the tenant's `longRunning` bound, a 429 ApiError at once: a watch
   * holds no seat, so without this a tenant's watches had no bound but the process's memory (ADR 0045).
   * `res`, when given, counts in the tenant's watch backlog budget (tenant-backlog.ts) until released.
   */
  enterLongRunning(tenant: TenantInfo, res?: ServerResponse): Seat;
  openLongRunning(tenantId: string): number;
  /**
   * Counts the connection that carries the request for its tenant (once per connection, until it closes).
   * Beyond the tenant's `connections` bound, a 429 ApiError, and `res`, when given, closes its connection
   * after answering it (ADR 0045).
   */
  admitConnection(socket: Socket, tenant: TenantInfo, res?: ServerResponse): void;
  openConnections(tenantId: string): number;
  stats(): FairLimiterStats;
}

const NO_SEAT: Seat = { release: () => undefined };

export interface FairnessHooks {
  /** A request refused with 429 (metrics). */
  rejected?(tenantId: string, reason: RejectReason | 'upgrades' | 'long-running' | 'connections'): void;
}

export function createFairness(config: FairnessConfig = {}, hooks: FairnessHooks = {}): Fairness {
  const seats = buildSeatLimit(config);
  const pacing = buildPacing(config);
  const limiter = new FairLimiter(seats, pacing);
  if (typeof seats !== 'number') seats.onRaised(() => limiter.wake());
  pacing?.onReady(() => limiter.wake());
  const retryAfterSeconds = config.retryAfterSeconds ?? 1;
  const holdMs = config.holdRefusedConnections === false ? 0 : retryAfterSeconds * 1000;
  const holdSpread = config.holdSpread ?? DEFAULT_HOLD_SPREAD;
  const holdWhileQueueFull = config.holdWhileQueueFull !== false;
  const upgrades = createTenantSlots();
  const longRunning = createTenantSlots();
  const connections = createTenantConnections();
  const backlogs = createTenantBacklogs();
  return {
    async enter(req, res, tenant) {
      if (config.enabled === false) return NO_SEAT;
      const limits = buildTenantLimits(config, tenant.id, tenant);
      // A free seat: taken at once, without the waiting machinery below (most requests).
      const free = limiter.tryAcquire(tenant.id, limits);
      if (free) return seated(res, free);
      // A client that hangs up while queued leaves the queue.
      const gone = new AbortController();
      const onClose = (): void => gone.abort(new Error('client went away'));
      res.once('close', onClose);
      let release: Release;
      try {
        release = await limiter.acquire(tenant.id, limits, gone.signal);
      } catch (err) {
        if (!(err instanceof RejectedError)) throw err;
        hooks.rejected?.(tenant.id, err.reason);
        throttleAfterResponse(res, req.socket, {
          ms: holdMs,
          spread: holdSpread,
          // Its queue still full: the next request would be refused too; leave it unread, up to the queue's own timeout.
          stillRefused: () => holdWhileQueueFull && limiter.queueFull(tenant.id, limits),
          maxMs: limits.queueTimeoutMs,
        });
        throw buildTooManyRequests({ reason: err.reason, seats: limits.seats, queueLength: limits.queueLength, running: err.running, retryAfterSeconds });
      } finally {
        res.off('close', onClose);
      }
      return seated(res, release);
    },
    enterUpgrade(tenant) {
      if (config.enabled === false) return NO_SEAT;
      const limits = buildTenantLimits(config, tenant.id, tenant);
      const seat = upgrades.take(tenant.id, limits.seats);
      if (seat) return seat;
      hooks.rejected?.(tenant.id, 'upgrades');
      throw buildTooManyRequests({ reason: 'upgrades', seats: limits.seats, queueLength: 0, retryAfterSeconds });
    },
    openUpgrades: (tenantId) => upgrades.open(tenantId),
    enterLongRunning(tenant, res) {
      if (config.enabled === false) return NO_SEAT;
      const limits = buildTenantLimits(config, tenant.id, tenant);
      const slot = longRunning.take(tenant.id, limits.longRunning);
      if (slot && res) {
        const forget = backlogs.track(tenant.id, res);
        return { release: () => { forget(); slot.release(); } };
      }
      if (slot) return slot;
      hooks.rejected?.(tenant.id, 'long-running');
      throw buildTooManyRequests({ reason: 'long-running', seats: limits.longRunning, queueLength: 0, retryAfterSeconds });
    },
    openLongRunning: (tenantId) => longRunning.open(tenantId),
    admitConnection(socket, tenant, res) {
      if (config.enabled === false) return;
      const limits = buildTenantLimits(config, tenant.id, tenant);
      if (connections.admit(socket, tenant.id, limits.connections)) return;
      hooks.rejected?.(tenant.id, 'connections');
      // Not counted, the connection must not stay open to carry more of the tenant's requests.
      if (res && !res.headersSent) res.setHeader('Connection', 'close');
      throw buildTooManyRequests({ reason: 'connections', seats: limits.connections, queueLength: 0, retryAfterSeconds });
    },
    openConnections: (tenantId) => connections.open(tenantId),
    stats: () => limiter.stats(),
  };
}

/** fairness.totalSeats alone, or as the ceiling of the adaptive limit. */
function buildSeatLimit(config: FairnessConfig): number | AdaptiveSeats {
  const totalSeats = config.totalSeats ?? DEFAULT_TOTAL_SEATS;
  const adaptive = config.adaptive ?? {};
  if (adaptive.enabled === false) return totalSeats;
  const minLimit = Math.min(totalSeats, adaptive.minSeats ?? 1);
  return createAdaptiveSeats({
    settings: {
      maxLimit: totalSeats,
      minLimit,
      initialLimit: Math.max(minLimit, Math.min(totalSeats, 4)),
      ...(adaptive.latencyTolerance === undefined ? {} : { tolerance: adaptive.latencyTolerance }),
      ...(adaptive.probeIntervalSeconds === undefined ? {} : { probeIntervalMs: adaptive.probeIntervalSeconds * 1000 }),
    },
  });
}

/** Pacing of a flooding tenant while another is active (flood-pacing.ts); on unless turned off. */
function buildPacing(config: FairnessConfig): FloodPacing | undefined {
  const pacing = config.pacing ?? {};
  if (pacing.enabled === false) return undefined;
  return createFloodPacing({
    settings: {
      ...(pacing.heavyOutstanding === undefined ? {} : { heavyOutstanding: pacing.heavyOutstanding }),
      ...(pacing.slowStartHoldWindows === undefined ? {} : { slowStartHoldWindows: pacing.slowStartHoldWindows }),
      ...(pacing.heavyConcurrency === undefined ? {} : { heavyConcurrency: pacing.heavyConcurrency }),
    },
    ...(pacing.targetLagMs === undefined ? {} : { targetLagMs: pacing.targetLagMs }),
  });
}

/** A seat taken for `res`: given back at its end (releaseOnEnd), or at once if the client already left. */
function seated(res: ServerResponse, release: Release): Seat {
  if (res.destroyed) {
    release();
    return NO_SEAT;
  }
  releaseOnEnd(res, release);
  return { release: () => release(false) };
}

/**
 * The seat goes back when the writer ends the response (a completed request:
 * a latency sample), or at 'close' if it never did (the client hung up: no
 * sample). Wrapping end() is the one hook that sees the writer finish before
 * the socket has drained.
 */
function releaseOnEnd(res: ServerResponse, release: Release): void {
  const end = res.end;
  res.end = function endAndRelease(this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
    release(true);
    return end.apply(this, args);
  } as ServerResponse['end'];
  res.once('close', () => release(false));
}
