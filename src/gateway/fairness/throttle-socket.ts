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
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const DEFAULT_HOLD_SPREAD = 0.5;

/**
 * After `res` is sent, stops reading `socket` for between (1 - spread) and
 * all of `ms` (idempotent per socket while paused). `random` in [0, 1) picks where.
 */
export function throttleAfterResponse(res: ServerResponse, socket: Socket | null, ms: number, spread = DEFAULT_HOLD_SPREAD, random: () => number = Math.random): void {
  if (!socket || ms <= 0) return;
  res.once('finish', () => holdSocket(socket, spreadHold(ms, spread, random())));
}

/**
 * A hold between (1 - spread) and all of `ms`, `at` (in [0, 1)) of the way:
 * refused connections come back spread, not together. spread 0: always `ms`.
 */
export function spreadHold(ms: number, spread: number, at: number): number {
  const s = Math.min(1, Math.max(0, spread));
  return ms * (1 - s + s * Math.min(1, Math.max(0, at)));
}

const held = new WeakSet<Socket>();

export function holdSocket(socket: Socket, ms: number): void {
  if (socket.destroyed || held.has(socket)) return;
  held.add(socket);
  socket.pause();
  const timer = setTimeout(() => {
    held.delete(socket);
    if (!socket.destroyed) socket.resume();
  }, ms);
  // The server keeps the process alive, not a throttled connection.
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
