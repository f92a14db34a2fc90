// The fairness step of the chain: a request waits for a seat in its tenant's
// share, and gives it back when its response is over (the 'close' of the
// response, not the end of the handler: a proxied answer is still streaming
// when the handler returns). Long-running requests pass through the queue like
// any other (so a tenant cannot open watches faster than its share admits) but
// give the seat back at once, as APF releases a watch's seat once it is set up.
import type { ServerResponse } from 'node:http';
import type { RequestInfo } from '../../core/request-info.ts';
import type { TenantInfo } from '../tenant-directory.ts';
import { DEFAULT_TOTAL_SEATS, buildTenantLimits, type FairnessConfig } from './fairness-config.ts';
import { FairLimiter, RejectedError, type FairLimiterStats, type RejectReason } from './fair-limiter.ts';
import { isLongRunning } from './long-running.ts';
import { buildTooManyRequests } from './too-many-requests.ts';

export interface Fairness {
  /** Resolves once the request holds a seat; throws a 429 ApiError when the tenant's share is used up. */
  enter(res: ServerResponse, tenant: TenantInfo, info: RequestInfo): Promise<void>;
  stats(): FairLimiterStats;
}

export interface FairnessHooks {
  /** A request refused with 429 (metrics). */
  rejected?(tenantId: string, reason: RejectReason): void;
}

export function createFairness(config: FairnessConfig = {}, hooks: FairnessHooks = {}): Fairness {
  const limiter = new FairLimiter(config.totalSeats ?? DEFAULT_TOTAL_SEATS);
  const retryAfterSeconds = config.retryAfterSeconds ?? 1;
  return {
    async enter(res, tenant, info) {
      if (config.enabled === false) return;
      const limits = buildTenantLimits(config, tenant.id, tenant);
      // A client that hangs up while queued leaves the queue.
      const gone = new AbortController();
      const onClose = (): void => gone.abort(new Error('client went away'));
      res.once('close', onClose);
      let release: () => void;
      try {
        release = await limiter.acquire(tenant.id, limits, gone.signal);
      } catch (err) {
        if (!(err instanceof RejectedError)) throw err;
        hooks.rejected?.(tenant.id, err.reason);
        throw buildTooManyRequests({ reason: err.reason, seats: limits.seats, queueLength: limits.queueLength, retryAfterSeconds });
      } finally {
        res.off('close', onClose);
      }
      if (isLongRunning(info) || res.destroyed) {
        release();
        return;
      }
      res.once('close', release);
    },
    stats: () => limiter.stats(),
  };
}
