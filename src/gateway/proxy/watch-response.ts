// A watch answer from upstream, relayed to the tenant through WatchTransform.
// A non-200 answer is a Status, not a stream: it goes through the JSON path.
//
// Slow clients: upstream is read as fast as it sends, and what the client has
// not taken yet waits in the response. Past maxPendingBytes the watch is cut
// off, as kube's watch cache cuts a watcher whose buffer is full: upstream is
// let go, what was queued stays queued, and the response ends with its final
// chunk, so a client that reads again sees a clean end and re-lists. (Passing
// backpressure upstream instead would hold an upstream watch, and a gateway
// buffer, for as long as the client sleeps.) A client that never reads again
// is cut at the socket after endGraceMs.
//
// Ends are clean whenever they can be: upstream finishing, and the gateway
// draining (the drain hook), flush what was translated and end the chunked
// response; client-go then re-lists. Upstream dying mid-stream ends cleanly
// too (the proxy adapter leaves self-handled responses alone; test/faults
// checks it). A client gone, or one that ignores the end for endGraceMs, is
// destroyed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendTranslatedJson } from './json-response.ts';
import type { WarningScrubber } from './response-headers.ts';
import { safeResponseHeaders } from './response-headers.ts';
import { WatchTransform, type WatchTransformOptions } from './watch-transform.ts';
import { setDrainHook } from '../fairness/drain-hook.ts';
import { overTenantBacklog } from '../fairness/tenant-backlog.ts';

export interface WatchResponseOptions extends WatchTransformOptions {
  /** Translates a refused watch's Status (410 Expired, 403, ...). */
  translateBody: (body: unknown) => unknown;
  scrubWarning?: WarningScrubber;
  /** Bytes waiting for a client before its watch is cut off (default 4 MiB). */
  maxPendingBytes?: number;
  /** How long a cut-off or drained client has to take the end before its socket is closed (default 10 s). */
  endGraceMs?: number;
}

export type WatchEnd = 'upstream-end' | 'upstream-gone' | 'slow-client' | 'drain' | 'client-gone' | 'malformed';

export const DEFAULT_MAX_PENDING_BYTES = 4 * 1024 * 1024;

/** Resolves with why the watch ended, whichever side ended it. */
export function sendTranslatedWatch(upstreamRes: IncomingMessage, res: ServerResponse, options: WatchResponseOptions): Promise<WatchEnd | undefined> {
  if (upstreamRes.statusCode !== 200) return sendTranslatedJson(upstreamRes, res, { translate: options.translateBody, scrubWarning: options.scrubWarning }).then(() => undefined);
  const maxPending = options.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
  const transform = new WatchTransform(options);
  const headers = safeResponseHeaders(upstreamRes, options.scrubWarning);
  headers['content-type'] ??= 'application/json';
  res.writeHead(200, headers);
  // Clients wait for the head before they count a watch as established (kubectl get -w prints nothing until then).
  res.flushHeaders();
  return new Promise((resolve) => {
    let reason: WatchEnd | undefined;
    let done = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const finish = (why: WatchEnd): void => {
      if (done) return;
      done = true;
      reason ??= why;
      clearTimeout(graceTimer);
      upstreamRes.destroy();
      transform.destroy();
      if (!res.writableFinished) res.destroy();
      resolve(reason);
    };
    const ending = (): boolean => reason !== undefined;
    // Trap: the proxy adapter destroys the client's response when the upstream response
    // aborts or fails (right for a cut upstream, wrong here). The watch takes the upstream
    // response over first: those listeners go, a no-op keeps a late 'error' harmless.
    const letUpstreamGo = (): void => {
      upstreamRes.unpipe(transform);
      upstreamRes.removeAllListeners('aborted');
      upstreamRes.removeAllListeners('error');
      upstreamRes.on('error', () => undefined);
      upstreamRes.destroy();
    };
    const armGrace = (): void => {
      graceTimer = setTimeout(() => finish(reason ?? 'client-gone'), options.endGraceMs ?? 10_000);
      graceTimer.unref();
    };
    // Flush what is translated, then the final chunk.
    const endFlushing = (why: WatchEnd): void => {
      if (ending()) return;
      reason = why;
      letUpstreamGo();
      transform.end();
      armGrace();
    };
    // Drop what is not yet written, end after what is queued.
    const cutOff = (why: WatchEnd): void => {
      if (ending()) return;
      reason = why;
      letUpstreamGo();
      transform.destroy();
      if (!res.writableEnded) res.end();
      armGrace();
    };
    transform.on('data', (chunk: Buffer) => {
      if (res.writableEnded || res.destroyed) return;
      res.write(chunk);
      if (res.writableLength > maxPending || overTenantBacklog(res)) cutOff('slow-client');
    });
    transform.once('end', () => {
      if (transform.endReason === 'malformed') reason ??= 'malformed';
      reason ??= 'upstream-end';
      if (!res.writableEnded) res.end();
    });
    transform.once('error', () => cutOff('slow-client'));
    upstreamRes.once('error', () => endFlushing('upstream-gone'));
    upstreamRes.once('aborted', () => endFlushing('upstream-gone'));
    res.once('finish', () => finish(reason ?? 'upstream-end'));
    res.once('close', () => finish(reason ?? 'client-gone'));
    setDrainHook(res, () => endFlushing('drain'));
    upstreamRes.pipe(transform);
  });
}
