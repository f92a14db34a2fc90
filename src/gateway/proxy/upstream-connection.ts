// How the proxy reaches the upstream: its address from Upstream.server and
// Warren's TLS identity and headers from Upstream.requestOptions(), held in one
// keep-alive agent so proxied requests reuse connections (a TLS handshake per
// request would dominate GET latency).
import https from 'node:https';
import type { AgentOptions, RequestOptions } from 'node:https';
import type { OutgoingHttpHeaders } from 'node:http';
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
  const agent = new https.Agent({ ...tls, keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout });
  const streamAgent = new https.Agent({ ...tls, keepAlive: true, maxFreeSockets: 16, timeout });
  return {
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 443,
    agent,
    streamAgent,
    tls,
    credentialHeaders: { ...(requestOptions.headers as OutgoingHttpHeaders | undefined) },
  };
}
