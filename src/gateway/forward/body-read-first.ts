// A request's body is read in full before the request takes a fairness seat
// (ADR 0026, amendment of session 11). Seats are for the gateway's work, not
// for waiting on a client: a seat held while a client trickles its body let
// four half-sent small POSTs of one tenant hold every gateway-wide seat, and
// other tenants' requests waited out their queue and got 429.
// The bytes are kept here, keyed by the request, and every later reader (the
// forwarder's decode, the proxy's raw forward) takes them from here: the
// client's stream is read once. Reads are bounded three ways: the body size
// (3 MiB, 413), a deadline (kube-apiserver's 60 s request timeout, 504 Timeout,
// then the connection is closed), and the bodies one tenant may have read or
// waiting for a seat at once (429): what seats bounded before, memory held.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import { readBody, sendsBody } from '../../http/request-body.ts';
import { buildTooManyRequests } from '../fairness/too-many-requests.ts';
import { BODY_METHODS } from './heavy-body-gate.ts';

/** kube-apiserver's timeout for a request that is not long-running. */
export const BODY_READ_DEADLINE_MS = 60_000;

/** A tenant's bodies read (or being read) ahead of their seat, at once: 32 × < 256 KiB bounds its memory. */
export const BODIES_READ_FIRST_PER_TENANT = 32;

const bodies = new WeakMap<IncomingMessage, Buffer>();

/** The body read before the seat, if it was; readers take these bytes instead of the (spent) stream. */
export function bodyReadFirst(req: IncomingMessage): Buffer | undefined {
  return bodies.get(req);
}

export interface BodyReader {
  /** Reads `req`'s whole body into memory (if the method carries one); resolves once it is all here. */
  read(req: IncomingMessage, res: ServerResponse, tenantId: string): Promise<void>;
}

export interface BodyReaderOptions {
  deadlineMs?: number;
  perTenant?: number;
}

export function createBodyReader(options: BodyReaderOptions = {}): BodyReader {
  const deadlineMs = options.deadlineMs ?? BODY_READ_DEADLINE_MS;
  const perTenant = options.perTenant ?? BODIES_READ_FIRST_PER_TENANT;
  const held = new Map<string, number>();
  return {
    async read(req, res, tenantId) {
      // Only the bodies the gateway reads: a GET's (a watch's) is never waited for.
      if (!BODY_METHODS.has((req.method ?? '').toUpperCase()) || !sendsBody(req)) return;
      const count = held.get(tenantId) ?? 0;
      if (count >= perTenant) {
        throw buildTooManyRequests({ reason: 'bodies-read-first', seats: perTenant, queueLength: 0, retryAfterSeconds: 1 });
      }
      held.set(tenantId, count + 1);
      // Held until the answer is gone: a body read ahead waits for its seat in memory.
      res.once('close', () => {
        const left = (held.get(tenantId) ?? 1) - 1;
        if (left > 0) held.set(tenantId, left);
        else held.delete(tenantId);
      });
      bodies.set(req, await withDeadline(readBody(req), deadlineMs, res));
    },
  };
}

async function withDeadline(reading: Promise<Buffer>, ms: number, res: ServerResponse): Promise<Buffer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The rest of the body may still come: the connection cannot carry another request.
      res.setHeader('Connection', 'close');
      reject(new ApiError('Timeout', 'request did not complete within the allotted timeout'));
    }, ms);
  });
  // After a timeout the read may still fail (the connection closes): that is expected.
  reading.catch(() => undefined);
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}
