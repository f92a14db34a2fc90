// The short path for a request whose answer the gateway translates (JSON
// objects, lists, Status errors): one https.request on the kept-alive agent,
// headers built once, the translated body written in one piece. http-proxy's
// passes (outgoing options per request, its event plumbing, header copying to
// a response it does not own) cost ~7% of the gateway's CPU per create (issue
// 18) and bought nothing here: the caller writes the answer itself. Streams
// (watch, logs) keep the adapter's http-proxy path.
import https from 'node:https';
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { sendsBody } from '../../http/request-body.ts';
import { sendStatus, upstreamFailure, UpstreamTimeoutError } from './proxy-errors.ts';
import { stripUpstreamHopByHop, type UpstreamConnection } from './upstream-connection.ts';

export interface LeanRequest {
  method: string;
  path: string;
  /** Final outgoing headers (outgoingHeaders()): the client's credential is already gone. */
  headers: OutgoingHttpHeaders;
  /** The translated body; absent: the client's own body (if any) is streamed through. */
  body?: Buffer;
  onResponse(upstreamRes: IncomingMessage): void;
}

/** Reads may be sent again on a fresh socket when a kept-alive one turns out closed (Node's documented pattern; upstream-client.ts does the same). */
const RETRIABLE = new Set(['GET', 'HEAD']);

export function sendLean(connection: UpstreamConnection, timeoutMs: number, exchange: { req: IncomingMessage; res: ServerResponse; request: LeanRequest }): void {
  const { req, res, request } = exchange;
  let current: ClientRequest | undefined;
  // The client going away ends the upstream request.
  res.once('close', () => {
    if (!res.writableFinished) current?.destroy();
  });
  const attempt = (mayRetry: boolean): void => {
    const upstreamReq = https.request({
      agent: connection.agent,
      host: connection.hostname,
      port: connection.port,
      method: request.method,
      path: request.path,
      headers: request.headers,
    });
    current = upstreamReq;
    // Deadline for the response head, as the http-proxy path has.
    const timer = setTimeout(() => upstreamReq.destroy(new UpstreamTimeoutError(timeoutMs)), timeoutMs);
    let answered = false;
    upstreamReq.once('response', (upstreamRes: IncomingMessage) => {
      answered = true;
      clearTimeout(timer);
      stripUpstreamHopByHop(upstreamRes);
      request.onResponse(upstreamRes);
    });
    upstreamReq.once('close', () => clearTimeout(timer));
    upstreamReq.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // After the head arrived the response handler owns failures (json-response.ts: a 503 or a cut).
      // A reset after the client left is expected, not an upstream failure.
      if (answered || req.socket.destroyed || res.destroyed) return;
      if (mayRetry && upstreamReq.reusedSocket && err.code === 'ECONNRESET') { attempt(false); return; }
      sendStatus(res, upstreamFailure(err));
    });
    if (request.body !== undefined) {
      upstreamReq.end(request.body);
    } else if (sendsBody(req)) {
      req.pipe(upstreamReq);
    } else {
      upstreamReq.end();
    }
  };
  attempt(RETRIABLE.has(request.method.toUpperCase()) && request.body === undefined && !sendsBody(req));
}
