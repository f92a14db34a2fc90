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
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** After `res` is sent, stops reading `socket` for `ms` (idempotent per socket while paused). */
export function throttleAfterResponse(res: ServerResponse, socket: Socket | null, ms: number): void {
  if (!socket || ms <= 0) return;
  res.once('finish', () => holdSocket(socket, ms));
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
