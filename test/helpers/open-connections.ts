// Connections opened ahead of a test's burst, so the burst's requests reach the
// gateway together instead of one TLS handshake apart (the handshake gate,
// ADR 0017, spaces new connections out on purpose). /version is public and
// takes no fairness seat, so opening them costs the tenant nothing.
import https from 'node:https';
import type { KubeHttp } from './kube-http.ts';

export interface OpenConnections {
  agent: https.Agent;
  /** Connections open and idle in the agent now. */
  idle(): number;
  close(): void;
}

/**
 * Up to `count` keep-alive connections of `client`, open and idle. Fewer may be left by the time the last one
 * is open: the server closes a connection idle for 5 s (Node's keepAliveTimeout), and on a loaded machine
 * `count` handshakes can take longer than that. A request sent as the server closes its idle connection fails
 * (ECONNRESET): send with retryOnReset().
 */
export async function openConnections(client: KubeHttp, count: number): Promise<OpenConnections> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count });
  const idle = (): number => Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
  // All sent before any answer: each needs a connection of its own.
  const answers = await Promise.all(Array.from({ length: count }, () => client.get('/version', undefined, { agent })));
  const failed = answers.filter((r) => r.status !== 200);
  if (failed.length > 0) throw new Error(`opening connections: /version answered ${failed.map((r) => r.status).join(', ')}`);
  // The last answers' sockets return to the pool once their responses are read: wait a turn for that.
  await new Promise((resolve) => setImmediate(resolve));
  return { agent, idle, close: () => agent.destroy() };
}

/** `send`, once more on a new connection if its kept-alive one was closed under it (as HTTP clients retry an idempotent request). */
export async function retryOnReset<T>(send: (agent: https.Agent | undefined) => Promise<T>, agent: https.Agent): Promise<T> {
  try {
    return await send(agent);
  } catch (err) {
    if (!/ECONNRESET|socket hang up|EPIPE/.test(String((err as NodeJS.ErrnoException).code ?? (err as Error).message))) throw err;
    return await send(undefined);
  }
}
