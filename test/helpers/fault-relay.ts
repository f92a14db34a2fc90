// A TCP relay for fault injection between Warren and an apiserver (upstream or
// member): cut every connection, go silent, or answer every new connection with
// a 500 (TLS is passed through untouched, so "500" here means the relay closes
// the TLS stream after a delay — see `delayMs`). Real sockets throughout, so the
// code under test sees exactly what a broken network shows it.
import net from 'node:net';

export interface FaultRelay {
  port: number;
  /** Resets every open connection and every new one until resume(). */
  cut(): void;
  /** Accepts connections but forwards nothing (a hung peer). */
  blackhole(): void;
  /** Forwards, but holds each chunk for `ms` first (a slow link). */
  slow(ms: number): void;
  resume(): void;
  /** How many connections are open through the relay now. */
  open(): number;
  close(): Promise<void>;
}

export async function startFaultRelay(targetPort: number, host = '127.0.0.1', listenPort = 0): Promise<FaultRelay> {
  let mode: 'open' | 'cut' | 'blackhole' = 'open';
  let delayMs = 0;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  // Order is kept: a delayed chunk is written only after every earlier one.
  const relay = (from: net.Socket, to: net.Socket): void => {
    let chain = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const wait = delayMs;
      chain = chain.then(() => (wait > 0 ? new Promise((r) => setTimeout(r, wait)) : undefined)).then(() => {
        if (!to.destroyed) to.write(chunk);
      });
    });
    from.on('end', () => { void chain.then(() => to.end()); });
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'cut') return void client.resetAndDestroy();
    if (mode === 'blackhole') return;
    const upstream = net.connect(targetPort, host);
    track(upstream);
    relay(client, upstream);
    relay(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(listenPort, host, resolve));
  const resetAll = (): void => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() { mode = 'cut'; resetAll(); },
    blackhole() { mode = 'blackhole'; },
    slow(ms) { delayMs = ms; },
    resume() { mode = 'open'; delayMs = 0; },
    open: () => sockets.size,
    close: () => new Promise<void>((resolve) => {
      resetAll();
      server.close(() => resolve());
    }),
  };
}

/** The same kubeconfig, pointing at the relay (serving certificates are for 127.0.0.1, so TLS still verifies). */
export function kubeconfigViaRelay(kubeconfig: string, relayPort: number): string {
  return kubeconfig.replace(/server: https:\/\/127\.0\.0\.1:\d+/, `server: https://127.0.0.1:${relayPort}`);
}
