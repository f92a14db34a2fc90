// The live stream: server-sent events carrying the whole console state each
// time the watches moved (coalesced in console-source.ts). Read by the
// browser with fetch, not EventSource, so the token travels in the
// Authorization header, never in a URL. A client that stops reading is cut
// off once 4 MiB wait for it (it reconnects and gets a fresh state): what
// the gateway holds never grows with a slow reader.
import type { ServerResponse } from 'node:http';
import type { ConsoleState } from '../view/console-types.ts';
import type { ConsoleSource } from './console-source.ts';
import { formatEvent } from '../view/event-stream.ts';

const MAX_BUFFERED = 4 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

export async function serveLive(res: ServerResponse, source: ConsoleSource, open: Set<ServerResponse>): Promise<void> {
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
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  const cleanup = (): void => {
    clearInterval(heartbeat);
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
  res.once('close', cleanup);
  res.on('error', cleanup);
  unsubscribe = source.subscribe((state: ConsoleState) => write(formatEvent('state', state)));
  write(formatEvent('state', first));
}
