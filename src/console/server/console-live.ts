// The live stream: server-sent events, read by the browser with fetch, not
// EventSource, so the token travels in the Authorization header, never in a
// URL. The first event is the whole state (`state`); after that each change
// the watches saw (coalesced in console-source.ts) is a `delta` of the rows
// that changed (view/console-model.ts), and a change the pages do not show
// sends nothing. The stream ends when the caller's credential expires (an
// `expired` event, then the end): a token is checked once per request, and a
// stream must not outlive it; the page signs in again. A client that stops
// reading is cut off once 4 MiB wait for it (it reconnects and gets a fresh
// state): what the gateway holds never grows with a slow reader.
import type { ServerResponse } from 'node:http';
import type { ConsoleSource, LiveUpdate } from './console-source.ts';
import { formatEvent } from '../view/event-stream.ts';

const MAX_BUFFERED = 4 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;
/** setTimeout's longest delay; a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LiveOptions {
  /** When the caller's credential expires (ms since the epoch); the stream ends then. */
  endsAt?: number;
}

export async function serveLive(res: ServerResponse, source: ConsoleSource, open: Set<ServerResponse>, options: LiveOptions = {}): Promise<void> {
  const first = await source.state();
  // The client may have gone while the first state was read: nothing to start for it.
  if (res.destroyed || res.socket?.destroyed) return;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Accel-Buffering': 'no',
  });
  open.add(res);
  let unsubscribe = (): void => undefined;
  let expiry: NodeJS.Timeout | undefined;
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  const cleanup = (): void => {
    clearInterval(heartbeat);
    clearTimeout(expiry);
    unsubscribe();
    open.delete(res);
  };
  // A stalled reader's socket never flushes, so 'close' may never come: destroy (not end) the
  // response, and never write after that; a write after end would be an unhandled 'error' that
  // ends the whole gateway.
  function write(text: string): void {
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BUFFERED) {
      cleanup();
      res.destroy();
      return;
    }
    res.write(text);
  }
  function expireAt(endsAt: number): void {
    const left = endsAt - Date.now();
    if (left > 0) {
      expiry = setTimeout(() => expireAt(endsAt), Math.min(left, MAX_TIMER_MS));
      return;
    }
    write(formatEvent('expired', { message: 'your credential expired: sign in again' }));
    cleanup();
    if (!res.destroyed && !res.writableEnded) res.end();
  }
  res.once('close', cleanup);
  res.on('error', cleanup);
  let sent = first.revision;
  unsubscribe = source.subscribe((update: LiveUpdate) => {
    // Every stream starts from the last broadcast (state() flushes first), so it is in step; one that
    // is not gets the whole state again rather than a delta from a state it never had.
    if (update.previous !== sent) {
      const state = update.state();
      sent = state.revision;
      write(formatEvent('state', state));
      return;
    }
    sent = update.revision;
    if (update.delta) write(formatEvent('delta', update.delta));
  });
  write(formatEvent('state', first));
  if (options.endsAt !== undefined) expireAt(options.endsAt);
}
