// Follows /console/api/live: server-sent events read through fetch (so the
// token is a header, as on every other call): a whole state first, then
// deltas. Reconnects with a growing pause when the stream ends or fails (a
// reconnect starts with a whole state again), and stops for good on 401/403
// or when the server says the credential expired.
import { ApiFailure, call } from './api.ts';
import { readEvents } from '../../src/console/view/event-stream.ts';
import type { ConsoleState } from '../../src/console/view/console-types.ts';
import type { ConsoleDelta } from '../../src/console/view/state-delta.ts';

export interface LiveHandlers {
  state(data: ConsoleState): void;
  delta(data: ConsoleDelta): void;
  /** The server ended the stream at the credential's expiry. */
  expired(message: string): void;
  status(text: string, live: boolean): void;
}

export function followLive(handlers: LiveHandlers): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let pause = 1000;
  const run = async (): Promise<void> => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const res = await call('/console/api/live', { signal: controller.signal, headers: { Accept: 'text/event-stream' } });
        if (!res.body) throw new Error('no stream');
        handlers.status('Live', true);
        pause = 1000;
        for await (const e of readEvents(res.body)) {
          if (e.event === 'state') handlers.state(JSON.parse(e.data) as ConsoleState);
          else if (e.event === 'delta') handlers.delta(JSON.parse(e.data) as ConsoleDelta);
          else if (e.event === 'expired') {
            stopped = true;
            handlers.expired((JSON.parse(e.data) as { message?: string }).message ?? 'your credential expired');
            return;
          }
        }
      } catch (err) {
        if (stopped) return;
        if (err instanceof ApiFailure && (err.code === 401 || err.code === 403)) return;
      }
      if (stopped) return;
      handlers.status('Reconnecting…', false);
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 10_000);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
