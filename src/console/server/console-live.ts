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
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Accel-Buffering': 'no',
  });
  open.add(res);
  const send = (state: ConsoleState): void => {
    if (res.writableLength > MAX_BUFFERED) {
      res.end();
      return;
    }
    res.write(formatEvent('state', state));
  };
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const unsubscribe = source.subscribe(send);
  res.once('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    open.delete(res);
  });
  send(first);
}
