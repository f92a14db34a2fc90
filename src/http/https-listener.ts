// Listening and stopping for Warren's HTTPS servers: stop() ends idle
// keep-alive connections at once, lets requests in flight finish, and cuts
// whatever is left (watches) after a grace period.
import type { Server } from 'node:https';
import type { Socket } from 'node:net';

export interface Listener {
  port: number;
  close(graceMs?: number): Promise<void>;
}

export async function listen(server: Server, host: string, port: number): Promise<Listener> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    async close(graceMs = 2_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, graceMs);
      await closed;
      clearTimeout(force);
    },
  };
}
