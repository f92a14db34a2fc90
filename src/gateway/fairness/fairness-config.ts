// Per-tenant fairness limits, in the spirit of API Priority and Fairness: every
// tenant is its own flow with a concurrency share (seats) and a bounded queue.
// Defaults come from the gateway's config; a Tenant may carry its own
// (TenantInfo.fairness), which wins field by field.
import type { TenantInfo } from '../../tenants/tenant-directory.ts';

export interface TenantLimits {
  /** Requests of this tenant that may run at once. */
  seats: number;
  /** Requests that may wait for a seat; beyond this, 429 at once. */
  queueLength: number;
  /** How long a request may wait for a seat before it gets 429. */
  queueTimeoutMs: number;
  /**
   * Long-running requests (watch, log follow, proxy) the tenant may hold open at once; beyond,
   * 429. They hold no seat (as in APF), so without this bound their number had none (ADR 0045).
   */
  longRunning: number;
  /** Connections that may carry the tenant's requests at once; beyond, 429 and the connection closes (ADR 0045). */
  connections: number;
}

/** What the FairLimiter's seats and queue need of a tenant's limits. */
export type QueueLimits = Pick<TenantLimits, 'seats' | 'queueLength' | 'queueTimeoutMs'>;

export interface FairnessConfig {
  /** Off: every request runs at once (single-tenant setups, benchmarks of the raw path). */
  enabled?: boolean;
  defaults?: Partial<TenantLimits>;
  /** Per-tenant overrides by tenant id, from the gateway's config file. */
  tenants?: Record<string, Partial<TenantLimits>>;
  /**
   * Seats for all tenants together (kube's max-requests-inflight, 400 + 200
   * mutating): the ceiling of the adaptive limit, or the fixed limit when
   * adaptive seats are off.
   */
  totalSeats?: number;
  /** A gateway-wide limit that follows latency, under totalSeats (adaptive-seats.ts); on by default. */
  adaptive?: AdaptiveSeatsConfig;
  /** Pacing of a flooding tenant while another tenant is active (flood-pacing.ts); on by default. */
  pacing?: PacingConfig;
  /**
   * TLS handshakes under way at once (handshake-gate.ts; 16 by default,
   * 0 = no limit): beyond, a new connection waits unread in the kernel, so a
   * burst of connections cannot finish its handshakes (and send its first
   * requests) all in one event-loop turn ahead of open connections' requests.
   */
  concurrentHandshakes?: number;
  /** The Retry-After of a 429, in seconds (kube's APF answers 1). */
  retryAfterSeconds?: number;
  /**
   * Stop reading a connection for Retry-After once it got a 429 (default on):
   * a client that ignores Retry-After costs at most one refusal per connection
   * per Retry-After (throttle-socket.ts).
   */
  holdRefusedConnections?: boolean;
  /**
   * How much of Retry-After a held connection's hold may be shortened, at
   * random (0-1, default 0.5: held between ½ and all of it), so connections
   * refused together do not all come back in the same instant.
   */
  holdSpread?: number;
  /**
   * While the tenant's queue is still full when a hold ends, hold the
   * connection again instead of reading it (its request would only be
   * refused again), up to the queue timeout in all (default on).
   */
  holdWhileQueueFull?: boolean;
}

export interface AdaptiveSeatsConfig {
  enabled?: boolean;
  /** The floor of the adaptive limit. */
  minSeats?: number;
  /** How many times its no-load latency a request may take before the limit shrinks. */
  latencyTolerance?: number;
  /** How often the no-load latency is measured again (the limit is pinned to 1 seat for ~10 requests). */
  probeIntervalSeconds?: number;
}

export interface PacingConfig {
  enabled?: boolean;
  /** The mean event-loop delay (ms) to hold the gateway to while a flooder and another tenant are both active. */
  targetLagMs?: number;
  /** Running + queued requests beyond this make a tenant a flooder (paced). */
  heavyOutstanding?: number;
  /** 100 ms windows after a decrease during which the rate may not double past it (0: doubling never capped). */
  slowStartHoldWindows?: number;
  heavyConcurrency?: number;
}

// longRunning: the gateway-perf bench's goal is 1,000 watches held by one tenant (an operator's informers, kubectl -w
// sessions, a Karmada agent); connections: each HTTP/1.1 watch is a connection of its own, plus client pools (ADR 0045).
export const DEFAULT_LIMITS: TenantLimits = { seats: 20, queueLength: 50, queueTimeoutMs: 10_000, longRunning: 1_000, connections: 1_500 };
export const DEFAULT_TOTAL_SEATS = 600;
export const DEFAULT_CONCURRENT_HANDSHAKES = 16;

/** The limits for one tenant: defaults, then the gateway config, then the Tenant's own. */
export function buildTenantLimits(config: FairnessConfig, tenantId: string, tenant?: Pick<TenantInfo, 'fairness'>): TenantLimits {
  const merged: TenantLimits = { ...DEFAULT_LIMITS };
  const layers: (Partial<TenantLimits> | undefined)[] = [config.defaults, config.tenants?.[tenantId], tenant?.fairness];
  for (const layer of layers) {
    if (!layer) continue;
    if (isCount(layer.seats, 1)) merged.seats = layer.seats;
    if (isCount(layer.queueLength, 0)) merged.queueLength = layer.queueLength;
    if (isCount(layer.queueTimeoutMs, 0)) merged.queueTimeoutMs = layer.queueTimeoutMs;
    if (isCount(layer.longRunning, 1)) merged.longRunning = layer.longRunning;
    if (isCount(layer.connections, 1)) merged.connections = layer.connections;
  }
  return merged;
}

// A broken value in one layer is ignored, not fatal: a bad Tenant must not stop the gateway.
function isCount(value: number | undefined, min: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}
