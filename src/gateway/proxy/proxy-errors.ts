// Failures to reach the upstream, as the tenant sees them: a Kubernetes Status
// that never names the upstream's address (a connect error's message does:
// "connect ECONNREFUSED 10.0.0.1:6443", so it is never passed on).
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../core/api-error.ts';

/** Raised by the adapter itself when the upstream has not answered within the deadline. */
export class UpstreamTimeoutError extends Error {
  readonly code = 'WARREN_UPSTREAM_TIMEOUT';
  constructor(timeoutMs: number) {
    super(`upstream did not answer within ${timeoutMs}ms`);
    this.name = 'UpstreamTimeoutError';
  }
}

/**
 * 504 for our own deadline (as kube-apiserver's timeout filter words it), 503
 * for everything else: refused, reset, TLS failure, DNS. Retry-After matches
 * what clients do with a 503 from kube-apiserver (client-go retries).
 */
export function upstreamFailure(err: unknown): ApiError {
  if (err instanceof UpstreamTimeoutError) {
    return new ApiError('Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded', { retryAfterSeconds: 0 });
  }
  return new ApiError('ServiceUnavailable', 'the server is currently unable to handle the request', { retryAfterSeconds: 1 });
}

/**
 * client-go waits and retries a 429 or 5xx only when the Retry-After header is
 * there (its checkWait); the Status body's details.retryAfterSeconds alone is not enough.
 */
function retryAfterHeader(error: ApiError): { 'Retry-After'?: string } {
  const seconds = error.details?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? { 'Retry-After': String(seconds) } : {};
}

/** Writes a Status as the whole response, unless a response is already under way (then the client sees a cut connection). */
export function sendStatus(res: ServerResponse, error: ApiError): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(error.toStatus());
  res.writeHead(error.code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, private',
    ...retryAfterHeader(error),
  });
  res.end(body);
}

/** The same Status on a raw socket (an upgrade request has no ServerResponse). */
export function sendStatusToSocket(socket: Duplex, error: ApiError): void {
  if (socket.destroyed || !socket.writable) return;
  const body = JSON.stringify(error.toStatus());
  const retryAfter = retryAfterHeader(error)['Retry-After'];
  const reason = error.code === 504 ? 'Gateway Timeout' : error.code === 503 ? 'Service Unavailable' : 'Error';
  socket.end(
    `HTTP/1.1 ${error.code} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-cache, private\r\n${retryAfter === undefined ? '' : `Retry-After: ${retryAfter}\r\n`}Connection: close\r\n\r\n${body}`,
  );
}
