// The one place that knows http-proxy (unreleased since 2020): everything else
// in the gateway talks to this small interface, so the engine can be swapped
// in this file alone. The chain calls forward() once a request is
// authenticated, authorized, translated and guarded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import httpProxy from 'http-proxy';
import type { Upstream } from '../../kube/upstream.ts';
import { outgoingHeaders, streamedBodyFraming } from './request-headers.ts';
import { sendStatus, upstreamFailure, UpstreamTimeoutError } from './proxy-errors.ts';
import { stripUpstreamHopByHop, upstreamConnection } from './upstream-connection.ts';
import { tunnelUpgrade } from './upgrade-tunnel.ts';
import { sendLean } from './lean-request.ts';
import { bodyReadFirst } from '../forward/body-read-first.ts';

/**
 * http-proxy sends a DELETE or OPTIONS without Content-Length as Content-Length: 0 (its deleteLength pass)
 * and still pipes the client's body after it: raw bytes the upstream would read as another request. Such a
 * request's body of unknown length is not sent (streams and watches are reads; their bodies mean nothing).
 */
function unframedByHttpProxy(req: IncomingMessage): boolean {
  const method = (req.method ?? '').toUpperCase();
  return (method === 'DELETE' || method === 'OPTIONS') && Object.keys(streamedBodyFraming(req.headers)).length > 0;
}

export interface ProxyTarget {
  /** Upstream path and query, already translated and guarded. */
  path: string;
  /** Extra or overriding headers (impersonation for audit, a translated Content-Type). */
  headers?: Record<string, string>;
  /** A replacement request body (translated, or protobuf decoded to JSON); the client's body is forwarded otherwise. */
  body?: Buffer;
  /**
   * When set, the adapter does not copy the response: the callback gets the
   * upstream response (status and headers untouched, hop-by-hop fields removed)
   * and owns writing `res` (json-response.ts, watch-response.ts).
   */
  onResponse?: (upstreamRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) => void;
  /** A long-lived response (watch, log follow): sent on the uncapped stream pool. */
  stream?: boolean;
}

export interface ProxyOptions {
  /** How long upstream may take to send response headers (default 60 s, kube-apiserver's request timeout). A watch's body may then idle for as long as it likes. */
  timeoutMs?: number;
}

export interface Proxy {
  forward(req: IncomingMessage, res: ServerResponse, target: ProxyTarget): void;
  /** exec, attach, port-forward: SPDY or WebSocket upgrades pass through intact. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: Pick<ProxyTarget, 'path' | 'headers'>): void;
  close(): void;
}

export function createProxy(upstream: Upstream, options: ProxyOptions = {}): Proxy {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const connection = upstreamConnection(upstream);
  const engine = httpProxy.createProxyServer({
    target: { protocol: 'https:', host: connection.hostname, port: connection.port },
    agent: connection.agent,
    secure: connection.tls.rejectUnauthorized !== false,
    changeOrigin: true,
    xfwd: false,
  });

  const handlers = new WeakMap<IncomingMessage, NonNullable<ProxyTarget['onResponse']>>();
  // Fires before http-proxy copies headers to the client: the only hook to drop
  // hop-by-hop fields, and where a self-handled response is handed over.
  engine.on('proxyRes', (upstreamRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) => {
    const streaming = upstreamRes.headers['content-length'] === undefined;
    stripUpstreamHopByHop(upstreamRes);
    const handler = handlers.get(req);
    if (handler) { handler(upstreamRes, req, res); return; }
    // A streamed answer (watch, logs -f) may send no byte for minutes, and pipe()
    // writes the head only with the first byte: send it as soon as http-proxy has set it.
    if (streaming) process.nextTick(() => { if (!res.headersSent && !res.destroyed) res.flushHeaders(); });
  });

  engine.on('proxyReq', (proxyReq, req, res) => {
    // Deadline for the response head only: a watch is long-lived by design.
    const timer = setTimeout(() => proxyReq.destroy(new UpstreamTimeoutError(timeoutMs)), timeoutMs);
    proxyReq.once('response', (upstreamRes: IncomingMessage) => {
      clearTimeout(timer);
      // Upstream dying mid-body of a piped answer: the client must see a cut connection,
      // not a hang. A self-handled answer (JSON, watch) deals with it itself: a 503 Status
      // before its head is sent, a clean end of a watch.
      if (handlers.has(req)) return;
      upstreamRes.once('aborted', () => res.destroy());
      upstreamRes.once('error', () => res.destroy());
    });
    proxyReq.once('close', () => clearTimeout(timer));
    // The client going away must end the upstream request (a watch would
    // otherwise live on upstream). Node no longer emits 'aborted' on a
    // completed GET, so http-proxy's own handling misses this case.
    (res as ServerResponse).once('close', () => {
      if (!(res as ServerResponse).writableFinished) proxyReq.destroy();
    });
  });

  return {
    forward(req, res, target) {
      // A body read before the seat (body-read-first.ts) is forwarded from memory: its stream is spent.
      const readFirst = target.body === undefined ? bodyReadFirst(req) : undefined;
      if (readFirst !== undefined) target = { ...target, body: readFirst };
      // The request is the adapter's from here: its path and headers are rewritten to the upstream's view.
      const extra: Record<string, string> = { ...target.headers };
      if (target.body !== undefined) extra['content-length'] = String(target.body.length);
      else Object.assign(extra, streamedBodyFraming(req.headers));
      // A translating caller must parse the body: never let upstream compress it.
      if (target.onResponse) extra['accept-encoding'] = 'identity';
      const headers = outgoingHeaders(req.headers, { credential: connection.credentialHeaders, extra });
      // An answer the caller translates, not a stream: one plain request (lean-request.ts), no http-proxy.
      const onResponse = target.onResponse;
      if (onResponse && !target.stream) {
        sendLean(connection, timeoutMs, {
          req, res,
          request: { method: req.method ?? 'GET', path: target.path, headers, ...(target.body !== undefined ? { body: target.body } : {}), onResponse: (upstreamRes) => onResponse(upstreamRes, req, res) },
        });
        return;
      }
      req.headers = headers as IncomingMessage['headers'];
      req.url = target.path;
      if (target.onResponse) handlers.set(req, target.onResponse);
      engine.web(req, res, {
        agent: target.stream ? connection.streamAgent : connection.agent,
        selfHandleResponse: target.onResponse !== undefined,
        ...(target.body !== undefined ? { buffer: Readable.from([target.body]) } : unframedByHttpProxy(req) ? { buffer: Readable.from([]) } : {}),
      }, (err) => {
        // A reset after the client left is expected, not an upstream failure.
        if (req.socket.destroyed) return;
        sendStatus(res, upstreamFailure(err));
      });
    },
    upgrade(req, socket, head, target) {
      tunnelUpgrade(connection, timeoutMs, { req, socket, head, target });
    },
    close() {
      engine.close();
      connection.agent.destroy();
      connection.streamAgent.destroy();
    },
  };
}
