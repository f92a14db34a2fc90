// Watch measurements through the gateway: replay throughput (events already in
// the upstream's history, so the write path does not cap the rate), and many
// concurrent watch streams held open for the gateway's memory.
import type { BenchClient } from '../http-client.ts';
import { expectStatus } from '../load.ts';
import { msSince } from '../stats.ts';

const DRAIN_TIMEOUT_MS = 60_000;

export interface WatchCounter {
  events: number;
  lastAt: bigint;
  close(): void;
}

/** A watch counting events (newline-delimited: no parsing on the client side). */
export async function openCountingWatch(client: BenchClient, path: string): Promise<WatchCounter> {
  const counter = { events: 0, lastAt: 0n, close: (): void => undefined };
  const stream = await client.stream(path, (text) => {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) counter.events++;
    counter.lastAt = process.hrtime.bigint();
  });
  if (stream.status !== 200) throw new Error(`watch ${path} answered HTTP ${stream.status}`);
  counter.close = stream.close;
  return counter;
}

export async function waitForEvents(counters: readonly WatchCounter[], expected: number, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (counters.some((c) => c.events < expected)) {
    if (Date.now() > deadline) {
      const short = counters.filter((c) => c.events < expected).length;
      throw new Error(`${short} of ${counters.length} watchers got fewer than ${expected} events in ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Current collection resourceVersion (a one-item LIST), to start watches with no initial events. */
export async function collectionVersion(client: BenchClient, path: string): Promise<string> {
  const reply = await client.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`);
  expectStatus(reply, 200);
  return (JSON.parse(reply.body) as { metadata: { resourceVersion?: string } }).metadata.resourceVersion ?? '0';
}

/**
 * Events/s of one watch asked to replay `expected` events from `resourceVersion`
 * (open to last event), or NaN with the count received when it falls short.
 */
export async function replayRate(client: BenchClient, watchPath: string, resourceVersion: string, expected: number): Promise<{ rate: number; events: number }> {
  const start = process.hrtime.bigint();
  const watch = await openCountingWatch(client, `${watchPath}${watchPath.includes('?') ? '&' : '?'}watch=1&resourceVersion=${resourceVersion}`);
  try {
    await waitForEvents([watch], expected, 15_000);
  } catch {
    return { rate: NaN, events: watch.events };
  } finally {
    watch.close();
  }
  return { rate: (expected / (Number(watch.lastAt - start) / 1e6)) * 1000, events: watch.events };
}

export interface HeldWatches {
  watches: WatchCounter[];
  openMs: number;
  /** A watch got no response headers within the open timeout: opening stopped there. */
  stalled: boolean;
  close(): void;
}

const OPEN_TIMEOUT_MS = 10_000;

/**
 * Opens up to `count` watches (each its own TLS connection and client
 * certificate handshake, as separate kubectl processes would), `parallel` at a
 * time. A watch that gets no headers within 10 s stops the opening instead of
 * hanging the bench (a connection pool limit in front of the upstream does that).
 */
export async function holdWatches(client: BenchClient, path: string, count: number, parallel: number): Promise<HeldWatches> {
  const rv = await collectionVersion(client, path);
  const watches: WatchCounter[] = [];
  const start = process.hrtime.bigint();
  let next = 0;
  let stalled = false;
  const opener = async (): Promise<void> => {
    while (next < count && !stalled) {
      next++;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), OPEN_TIMEOUT_MS); });
      const opened = await Promise.race([openCountingWatch(client, `${path}${path.includes('?') ? '&' : '?'}watch=1&resourceVersion=${rv}`), timeout]);
      clearTimeout(timer);
      if (opened) watches.push(opened);
      else stalled = true;
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, opener));
  } catch (err) {
    for (const w of watches) w.close();
    throw err;
  }
  return { watches, openMs: msSince(start), stalled, close: () => watches.forEach((w) => w.close()) };
}
