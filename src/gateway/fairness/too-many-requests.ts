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
   * 'bodies-read-first': `seats` request bodies being received or waiting for a seat (body-read-first.ts).
   */
  reason: RejectReason | 'upgrades' | 'large-bodies' | 'bodies-read-first';
  seats: number;
  /**
   * For 'queue-timeout': how many of its seats the tenant had in use. Fewer than `seats`: what stayed
   * busy were the gateway's seats, shared by every tenant, and the message must not blame its own.
   */
  running?: number;
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
        : facts.reason === 'bodies-read-first'
          ? `this cluster already has ${facts.seats} request bodies being received or waiting`
          : facts.running !== undefined && facts.running < facts.seats
            ? `the server was busy for as long as the request could wait (this cluster had ${facts.running} of its ${facts.seats} request seats in use)`
            : `this cluster's ${facts.seats} request seats stayed busy for as long as the request could wait`;
  return new ApiError('TooManyRequests', `Too many requests, please try again later: ${why}`, { retryAfterSeconds: facts.retryAfterSeconds });
}
