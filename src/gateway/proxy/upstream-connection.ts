// How the proxy reaches the upstream: its address from Upstream.server and
// Warren's TLS identity and headers from Upstream.requestOptions(), held in one
// keep-alive agent so proxied requests reuse connections (a TLS handshake per
// request would dominate GET latency).
import https from 'node:https';
import type { AgentOptions, RequestOptions } from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { stripResponseHopByHop } from './request-headers.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { UPSTREAM_IDLE_SOCKET_MS } from '../../kube/upstream-idle.ts';

export interface UpstreamConnection {
  hostname: string;
  port: number;
  /** Pooled connections for ordinary requests. */
  agent: https.Agent;
  /**
   * Connections for long-lived responses (watches, logs): each holds its socket for its
   * whole life, so they get a pool with no cap. In the capped pool, the 257th watch
   * would wait for a socket, and every request behind it with it.
   */
  streamAgent: https.Agent;
  /** The TLS options alone, for one-off connections (upgrades leave the pool for good). */
  tls: AgentOptions;
  /** Warren's own credential headers, if it authenticates by header (bearer token). */
  credentialHeaders: OutgoingHttpHeaders;
}

const TLS_KEYS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized', 'checkServerIdentity', 'ciphers', 'minVersion', 'maxVersion', 'secureProtocol'] as const;

export interface UpstreamConnectionOptions {
  /** Idle lifetime of a pooled connection (default UPSTREAM_IDLE_SOCKET_MS; tests shorten it). */
  idleSocketMs?: number;
}

/** An upstream's Keep-Alive hint, in ms of idle life left for its connection, kept until the connection is next free. */
const hints = new WeakMap<Duplex, number>();

/**
 * Deletes an upstream response's hop-by-hop headers (they are not the client's), first keeping its
 * `Keep-Alive: timeout=N` hint for the pool. Node's agent reads that hint from the response's headers
 * once the response has ended, long after they were stripped here: without this, an upstream that
 * closes idle connections sooner than the pool's idle lifetime and says so still raced it (ADR 0036,
 * amendment session 13).
 */
export function stripUpstreamHopByHop(res: IncomingMessage): void {
  const header = res.headers['keep-alive'];
  const seconds = typeof header === 'string' ? /^timeout=(\d+)/.exec(header)?.[1] : undefined;
  // Node's own margin: the hint less one second (an idle timer a second early beats a FIN in flight).
  if (seconds !== undefined && res.socket) hints.set(res.socket, Number(seconds) * 1000 - 1000);
  stripResponseHopByHop(res.headers);
}

/** A keep-alive pool whose idle lifetime is the shorter of its own and the upstream's hint (Node's rule, fed the hint kept above). */
class HintedAgent extends https.Agent {
  private readonly idleMs: number;

  constructor(options: AgentOptions & { timeout: number }) {
    super(options);
    this.idleMs = options.timeout;
  }

  override keepSocketAlive(socket: Duplex): boolean {
    // Node's agent treats a false answer as "destroy instead of pooling" (documented; @types/node says void).
    const kept = (super.keepSocketAlive(socket) as unknown) !== false;
    const hint = hints.get(socket);
    if (hint === undefined || !kept) return kept;
    hints.delete(socket);
    if (hint <= 0) return false;
    if (hint < this.idleMs) (socket as Socket).setTimeout(hint);
    return true;
  }
}

export function upstreamConnection(upstream: Upstream, options: UpstreamConnectionOptions = {}): UpstreamConnection {
  const url = new URL(upstream.server);
  const requestOptions: RequestOptions = upstream.requestOptions();
  const tls: AgentOptions = {};
  for (const key of TLS_KEYS) {
    if (requestOptions[key] !== undefined) (tls as Record<string, unknown>)[key] = requestOptions[key];
  }
  // kube-apiserver only speaks HTTPS; a plain-HTTP upstream would also mean sending Warren's credential in clear.
  if (url.protocol !== 'https:') throw new Error(`upstream ${upstream.server} is not https`);
  // Our own pool, built from the TLS options: an agent handed over by the upstream client may carry
  // its TLS settings per request rather than in the agent, and http-proxy only passes the agent on.
  const timeout = options.idleSocketMs ?? UPSTREAM_IDLE_SOCKET_MS;
  const agent = new HintedAgent({ ...tls, keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout });
  const streamAgent = new HintedAgent({ ...tls, keepAlive: true, maxFreeSockets: 16, timeout });
  return {
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 443,
    agent,
    streamAgent,
    tls,
    credentialHeaders: { ...(requestOptions.headers as OutgoingHttpHeaders | undefined) },
  };
}
