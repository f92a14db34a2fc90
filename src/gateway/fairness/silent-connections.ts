// A connection that completes its TLS handshake and then sends nothing was
// never closed: Node's headersTimeout starts with a request's first byte, and
// the server sets no idle timeout (a watch may go quiet for minutes). Such a
// connection belongs to no tenant yet (ADR 0045: one is counted at its first
// authenticated request), so no tenant's bound could hold it, and anyone who
// can reach the port could pile them up. A connection gets this long for its
// first request (or upgrade); after that, its requests' own timeouts apply.
import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';

/** How long a new connection may stay silent before its first request (kube's request timeout is 60 s). */
export const FIRST_REQUEST_DEADLINE_MS = 30_000;

interface Closable {
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Closes every connection that sends no request within `ms` of `connectionEvent`
 * ('secureConnection' for an HTTPS server: the handshake's own timeout covers what comes before).
 */
export function closeSilentConnections(server: EventEmitter, options: { ms?: number; connectionEvent?: string } = {}): void {
  const ms = options.ms ?? FIRST_REQUEST_DEADLINE_MS;
  const deadlines = new WeakMap<object, NodeJS.Timeout>();
  server.on(options.connectionEvent ?? 'secureConnection', (socket: Closable) => {
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    deadlines.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  const heard = (req: IncomingMessage): void => {
    const timer = deadlines.get(req.socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    deadlines.delete(req.socket);
  };
  server.on('request', heard);
  server.on('upgrade', heard);
}
