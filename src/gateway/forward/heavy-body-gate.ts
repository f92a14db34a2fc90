// Large request bodies, one at a time per tenant (ADR 0026). Each step of a
// write (decode, translation, serialisation, the response's parse and
// translation) is a synchronous turn of the one event loop whose length grows
// with the body. Two of a tenant's 1 MB writes in flight put two such turns in
// front of every other tenant's request instead of one; more would queue more.
// Here a tenant's large write waits (its body unread, so its bytes wait in the
// socket) until the tenant's previous large write has been answered: the turn
// covers the whole write, the gateway's work on its answer (parse, translation,
// serialisation) included, since it is given back when the response closes.
// At most LARGE_BODY_QUEUE wait; one more is refused with 429 and Retry-After,
// as kube's APF refuses beyond a full queue (each waiter also holds one of the
// tenant's seats and a socket). Small bodies, and other tenants, never wait for it.
// After the turn, the body is read in full before the seat (body-read-first.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import { OneAtATime } from '../../core/fairness/one-at-a-time.ts';
import { buildTooManyRequests } from '../fairness/too-many-requests.ts';

/** A body at least this large takes its tenant's turn: kube's annotation bound, far above most objects. */
export const LARGE_BODY_BYTES = 256 * 1024;

/** A tenant's large bodies that may wait behind the one in progress. */
export const LARGE_BODY_QUEUE = 4;

/** What the refused client is told to wait: about one large write's time. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The methods whose body the gateway reads (create, update, patch, delete, deletecollection). The gate
 * runs before the verb is known: a GET (a watch) announcing a body would otherwise hold the tenant's
 * turn for its whole life, every large write of the tenant waiting or refused behind it.
 */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Declared large, or of unknown length (chunked): judged before a byte is read. */
export function isLargeBody(req: IncomingMessage, threshold = LARGE_BODY_BYTES): boolean {
  if (!BODY_METHODS.has((req.method ?? '').toUpperCase())) return false;
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) >= threshold;
  return req.headers['transfer-encoding'] !== undefined;
}

export interface HeavyBodyGate {
  /** Resolves once this request may read its body; the turn is given back when `res` closes. */
  enter(req: IncomingMessage, res: ServerResponse | undefined, tenantId: string): Promise<void>;
  /**
   * The gateway is shutting down: every request still waiting for its turn is answered 503 at once (its
   * body unread, so nothing of it was done and the client may send it again elsewhere), and so is any
   * later one that would wait. Waiting, such a request was in nobody's drain: left, it either held the
   * drain up behind the tenant's other large writes or was cut at the deadline without an answer.
   */
  drain(): void;
}

const shuttingDown = (): ApiError => new ApiError('ServiceUnavailable', 'the server is shutting down, please try again', { retryAfterSeconds: 1 });

export function createHeavyBodyGate(threshold = LARGE_BODY_BYTES, queueLength = LARGE_BODY_QUEUE): HeavyBodyGate {
  const turns = new OneAtATime();
  let draining = false;
  const refuseWaiters = new Set<(error: Error) => void>();
  return {
    async enter(req, res, tenantId) {
      if (!res || !isLargeBody(req, threshold)) return;
      // Shutting down, a request that would wait is not queued (one that goes in at once is in flight, drained as any).
      if (draining && turns.held(tenantId)) throw shuttingDown();
      // A waiter whose client left, or that the drain answered, takes no place in the queue (it would refuse live ones until its turn).
      const turn = turns.tryAcquire(tenantId, queueLength, () => res.closed || res.destroyed || draining);
      if (!turn) throw buildTooManyRequests({ reason: 'large-bodies', seats: 1, queueLength, retryAfterSeconds: RETRY_AFTER_SECONDS });
      // The wait ends with the turn, the drain's 503, or the client leaving (as a seat's queue ends it): a
      // waiter left pending would keep its request and response reachable from refuseWaiters until shutdown,
      // so a tenant hanging up large writes behind its own grew the gateway's memory without bound.
      let refuse: (error: Error) => void = () => undefined;
      const refused = new Promise<never>((_, reject) => { refuse = reject; });
      const clientLeft = (): void => refuse(new Error('client went away'));
      refuseWaiters.add(refuse);
      res.once('close', clientLeft);
      if (res.closed || res.destroyed) clientLeft();
      try {
        const release = await Promise.race([turn, refused]);
        if (res.closed) release();
        else res.once('close', release);
      } finally {
        refuseWaiters.delete(refuse);
        res.off('close', clientLeft);
      }
    },
    drain() {
      draining = true;
      for (const refuse of refuseWaiters) refuse(shuttingDown());
    },
  };
}
