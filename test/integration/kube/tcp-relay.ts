// A TCP relay in front of the upstream, so a test can cut the network between
// the informer and the apiserver (the server keeps running and keeps writing),
// or make it go silent. Real sockets throughout: TLS passes through untouched.
import net from 'node:net';

export interface TcpRelay {
  port: number;
  /** Drops every open connection and resets new ones until resume(). */
  cut(): void;
  /** Accepts connections but never forwards a byte (a hung upstream). */
  blackhole(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(targetPort: number, host = '127.0.0.1'): Promise<TcpRelay> {
  let mode: 'open' | 'cut' | 'blackhole' = 'open';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'cut') return void client.resetAndDestroy();
    if (mode === 'blackhole') return;
    const upstream = net.connect(targetPort, host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const destroyAll = (): void => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      mode = 'cut';
      destroyAll();
    },
    blackhole() {
      mode = 'blackhole';
    },
    resume() {
      mode = 'open';
    },
    close: () => new Promise<void>((resolve) => {
      destroyAll();
      server.close(() => resolve());
    }),
  };
}

/** The same kubeconfig, pointing at the relay (the serving certificate is for 127.0.0.1, so TLS still verifies). */
export function viaRelay(kubeconfig: string, upstreamUrl: string, relayPort: number): string {
  return kubeconfig.replace(upstreamUrl, `https://127.0.0.1:${relayPort}`);
}
