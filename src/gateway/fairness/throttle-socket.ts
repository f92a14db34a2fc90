// Clients that ignore Retry-After. A 429 is cheap, but not free: TLS record,
// HTTP parsing, authentication and a JSON Status all run on the gateway's one
// event loop, so a flooder that retries at once on a keep-alive connection can
// take the CPU its neighbours need even though it never gets a seat. After
// answering 429 we stop reading from that connection (socket.pause()) until
// the Retry-After has passed: the next request waits in the kernel's buffers,
// unparsed, so one flooding connection costs at most ~1 refusal per
// Retry-After (1 s by default). A client that honours Retry-After never
// notices. Connections are not closed: a new TLS handshake costs more than a
// refusal, and a flooder would simply reconnect.
// The hold is drawn between (1 - spread) and all of Retry-After, at random
// (spread ½ by default, fairness.holdSpread): a
// flooder's connections are refused together (its queue fills at once), and
// with one fixed hold they all came back in the same instant, once a second:
// a burst of ~150 refusals in one event-loop turn, in the fairness bench,
// ahead of every other tenant's requests. Spread over half a second, they
// interleave. A client that honours Retry-After still never waits; one that
// ignores it gets at most 1 / (1 - spread) refusals per connection per Retry-After.
// While the tenant's queue is still full when a hold ends, the connection is
// held again instead of read (its request would only be refused again), up
// to the queue timeout: a flooder with 200 connections and a full queue
// otherwise cost a refusal per connection per hold, ~260 a second, each
// one a TLS record, HTTP parsing, authentication and a JSON Status on the
// loop its neighbours need, even while pacing admitted it a few requests a
// second. A connection held that long is read and refused as before.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const DEFAULT_HOLD_SPREAD = 0.5;

export interface HoldOptions {
  /** Retry-After, in ms: each hold lasts between (1 - spread) and all of it. */
  ms: number;
  /** 0-1; default DEFAULT_HOLD_SPREAD. */
  spread?: number;
  /** In [0, 1): where in the spread each hold ends. */
  random?: () => number;
  /** Asked when a hold ends: true holds the connection again (its next request would be refused). */
  stillRefused?: () => boolean;
  /** The longest a connection stays unread in all (default: one hold). */
  maxMs?: number;
}

/** After `res` is sent, stops reading `socket` (see HoldOptions; idempotent per socket while held). */
export function throttleAfterResponse(res: ServerResponse, socket: Socket | null, options: HoldOptions): void {
  if (!socket || options.ms <= 0) return;
  res.once('finish', () => holdSocket(socket, options));
}

/**
 * A hold between (1 - spread) and all of `ms`, `at` (in [0, 1)) of the way:
 * refused connections come back spread, not together. spread 0: always `ms`.
 */
export function spreadHold(ms: number, spread: number, at: number): number {
  const s = Math.min(1, Math.max(0, spread));
  return ms * (1 - s + s * Math.min(1, Math.max(0, at)));
}

/**
 * When a hold ends after `heldMs` in all: the next hold (ms), or undefined to
 * read the connection again. Held again only while its request would still be
 * refused, and never beyond maxMs in all (the last hold is cut to fit).
 */
export function nextHold(heldMs: number, stillRefused: boolean, hold: number, maxMs: number): number | undefined {
  if (!stillRefused || heldMs >= maxMs) return undefined;
  return Math.min(hold, maxMs - heldMs);
}

const held = new WeakSet<Socket>();

export function holdSocket(socket: Socket, options: HoldOptions): void {
  if (socket.destroyed || held.has(socket)) return;
  const draw = (): number => spreadHold(options.ms, options.spread ?? DEFAULT_HOLD_SPREAD, (options.random ?? Math.random)());
  const maxMs = options.maxMs ?? 0;
  held.add(socket);
  socket.pause();
  let heldMs = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number): void => {
    timer = setTimeout(() => {
      heldMs += ms;
      const next = socket.destroyed ? undefined : nextHold(heldMs, options.stillRefused?.() ?? false, draw(), maxMs);
      if (next !== undefined && next > 0) {
        // The HTTP server's keep-alive timer (5 s by default) sees an unread connection as idle and would cut it
        // (the client's request lost, a socket reset) while we hold it on purpose: restart that timer.
        if (socket.timeout) socket.setTimeout(socket.timeout);
        return arm(next);
      }
      held.delete(socket);
      if (!socket.destroyed) socket.resume();
    }, ms);
    // The server keeps the process alive, not a throttled connection.
    timer.unref();
  };
  arm(draw());
  socket.once('close', () => clearTimeout(timer));
}
