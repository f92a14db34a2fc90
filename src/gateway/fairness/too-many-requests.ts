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
   * 'long-running': `seats` watches, log follows and proxy requests open (ADR 0045).
   * 'connections': `seats` connections carrying the tenant's requests (ADR 0045).
   */
  reason: RejectReason | 'upgrades' | 'large-bodies' | 'bodies-read-first' | 'long-running' | 'connections';
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
  return new ApiError('TooManyRequests', `Too many requests, please try again later: ${whyRefused(facts)}`, { retryAfterSeconds: facts.retryAfterSeconds });
}

function whyRefused(facts: TooManyRequestsFacts): string {
  switch (facts.reason) {
    case 'queue-full': return `this cluster already has ${facts.seats} requests in progress and ${facts.queueLength} waiting`;
    case 'upgrades': return `this cluster already has ${facts.seats} exec, attach or port-forward sessions open`;
    case 'large-bodies': return `this cluster already has a large request body in progress and ${facts.queueLength} waiting`;
    case 'bodies-read-first': return `this cluster already has ${facts.seats} request bodies being received or waiting`;
    case 'long-running': return `this cluster already has ${facts.seats} watches and other long-running requests (log follow, proxy) open; close some first`;
    case 'connections': return `this cluster already has ${facts.seats} connections open to the server; reuse or close some first`;
    case 'queue-timeout':
      return facts.running !== undefined && facts.running < facts.seats
        ? `the server was busy for as long as the request could wait (this cluster had ${facts.running} of its ${facts.seats} request seats in use)`
        : `this cluster's ${facts.seats} request seats stayed busy for as long as the request could wait`;
  }
}
