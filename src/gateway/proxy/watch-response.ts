// A watch answer from upstream, relayed to the tenant through WatchTransform.
// A non-200 answer is a Status, not a stream: it goes through the JSON path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendTranslatedJson } from './json-response.ts';
import type { WarningScrubber } from './response-headers.ts';
import { safeResponseHeaders } from './response-headers.ts';
import { WatchTransform, type WatchTransformOptions } from './watch-transform.ts';

export interface WatchResponseOptions extends WatchTransformOptions {
  /** Translates a refused watch's Status (410 Expired, 403, ...). */
  translateBody: (body: unknown) => unknown;
  scrubWarning?: WarningScrubber;
}

/** Resolves when the watch is over, whichever side ended it. */
export function sendTranslatedWatch(upstreamRes: IncomingMessage, res: ServerResponse, options: WatchResponseOptions): Promise<void> {
  if (upstreamRes.statusCode !== 200) return sendTranslatedJson(upstreamRes, res, { translate: options.translateBody, scrubWarning: options.scrubWarning });
  const transform = new WatchTransform(options);
  const headers = safeResponseHeaders(upstreamRes, options.scrubWarning);
  headers['content-type'] ??= 'application/json';
  res.writeHead(200, headers);
  // Clients wait for the head before they count a watch as established (kubectl get -w prints nothing until then).
  res.flushHeaders();
  return new Promise((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      upstreamRes.destroy();
      if (!res.writableFinished) res.destroy();
      transform.destroy();
      resolve();
    };
    // Any end is the end of all three: a client gone, upstream gone, a malformed line, an overflow.
    res.once('close', finish);
    res.once('finish', finish);
    transform.once('error', finish);
    upstreamRes.once('error', finish);
    upstreamRes.once('aborted', finish);
    upstreamRes.pipe(transform).pipe(res);
  });
}
