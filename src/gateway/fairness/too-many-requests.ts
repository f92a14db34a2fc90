// The 429 a tenant gets when its share is used up: kube's TooManyRequests
// Status with retryAfterSeconds (sendGatewayError turns it into Retry-After),
// worded in the tenant's terms: its own numbers, never other tenants' or the
// gateway's totals.
import { ApiError } from '../../core/api-error.ts';
import type { RejectReason } from './fair-limiter.ts';

export interface TooManyRequestsFacts {
  /**
   * 'upgrades': the tenant holds as many exec/attach/port-forward sessions as it has seats.
   * 'large-bodies': one large body in progress and `queueLength` waiting (heavy-body-gate.ts).
   */
  reason: RejectReason | 'upgrades' | 'large-bodies';
  seats: number;
  queueLength: number;
  retryAfterSeconds: number;
}

export function buildTooManyRequests(facts: TooManyRequestsFacts): ApiError {
  const why = facts.reason === 'queue-full'
    ? `this cluster already has ${facts.seats} requests in progress and ${facts.queueLength} waiting`
    : facts.reason === 'upgrades'
      ? `this cluster already has ${facts.seats} exec, attach or port-forward sessions open`
      : facts.reason === 'large-bodies'
        ? `this cluster already has a large request body in progress and ${facts.queueLength} waiting`
      : `this cluster's ${facts.seats} request seats stayed busy for as long as the request could wait`;
  return new ApiError('TooManyRequests', `Too many requests, please try again later: ${why}`, { retryAfterSeconds: facts.retryAfterSeconds });
}
