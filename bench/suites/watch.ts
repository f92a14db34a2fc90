// Watch events per second delivered to watchers, three ways:
// - live, 1 watcher: writers create then update ConfigMaps at full speed (32 in
//   flight) on other connections; the rate a watcher sees is capped by writes/s;
// - live, 10 watchers: the same writes, counted over all watchers (fan-out);
// - replay (embedded only: the floor keeps no history): a backlog of events is
//   written first, then one watcher asks for it from an older resourceVersion,
//   which measures the delivery path alone, free of the write path.
import type { BenchClient } from '../http-client.ts';
import { cmPath, configMap } from '../fixtures.ts';
import { ensureNamespace } from '../dataset.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import { msSince } from '../stats.ts';
import { rowOf, type Suite } from '../suite.ts';
import type { Row } from '../report.ts';
import type { Target } from '../targets/targets.ts';

const WRITERS = 32;
const LIVE_WRITES = 12_000;
const OBJECTS = 1_000;
const PAYLOAD = 200;
const FANOUT = 10;
const REPLAY_EVENTS = 8_000; // under the server's 10,000-event history
const GOAL = 20_000;
const DRAIN_TIMEOUT_MS = 30_000;

interface Counter {
  events: number;
  lastAt: bigint;
}

async function openWatchers(client: BenchClient, namespace: string, resourceVersion: string, count: number): Promise<{ counters: Counter[]; close(): void }> {
  const counters: Counter[] = [];
  const streams: { close(): void }[] = [];
  for (let i = 0; i < count; i++) {
    const counter: Counter = { events: 0, lastAt: 0n };
    // Events are newline-delimited: counting newlines counts events without parsing them.
    const stream = await client.stream(`${cmPath(namespace)}?watch=1&resourceVersion=${resourceVersion}`, (text) => {
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) counter.events++;
      counter.lastAt = process.hrtime.bigint();
    });
    if (stream.status !== 200) throw new Error(`watch answered HTTP ${stream.status}`);
    counters.push(counter);
    streams.push(stream);
  }
  return { counters, close: () => streams.forEach((s) => s.close()) };
}

async function waitFor(counters: Counter[], expected: number): Promise<void> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (counters.some((c) => c.events < expected)) {
    if (Date.now() > deadline) throw new Error(`watchers got ${counters.map((c) => c.events).join(', ')} of ${expected} events`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function currentRevision(client: BenchClient, namespace: string): Promise<string> {
  const reply = await client.request('GET', `${cmPath(namespace)}?limit=1`);
  expectStatus(reply, 200);
  return (JSON.parse(reply.body) as { metadata: { resourceVersion?: string } }).metadata.resourceVersion ?? '0';
}

/** Creates OBJECTS ConfigMaps, then updates them round-robin, `total` writes in all. */
function writeLoad(client: BenchClient, namespace: string, total: number, seed: number): Promise<unknown> {
  return runConcurrent(WRITERS, total, async (i) => {
    const name = `w-${seed}-${i % OBJECTS}`;
    const body = configMap(namespace, name, PAYLOAD, i);
    const reply = i < OBJECTS ? await client.request('POST', cmPath(namespace), body) : await client.request('PUT', cmPath(namespace, name), body);
    expectStatus(reply, 200, 201);
  });
}

async function live(target: Target, watchers: number, seed: number): Promise<{ perWatcher: number; total: number; writesPerSecond: number }> {
  const namespace = `watch-${seed}`;
  const client = target.client(WRITERS);
  await ensureNamespace(client, namespace);
  const rv = await currentRevision(client, namespace);
  const w = await openWatchers(client, namespace, rv, watchers);
  const start = process.hrtime.bigint();
  await writeLoad(client, namespace, LIVE_WRITES, seed);
  const writeMs = msSince(start);
  await waitFor(w.counters, LIVE_WRITES);
  w.close();
  client.close();
  const rates = w.counters.map((c) => (LIVE_WRITES / (Number(c.lastAt - start) / 1e6)) * 1000);
  return { perWatcher: Math.min(...rates), total: rates.reduce((a, b) => a + b, 0), writesPerSecond: (LIVE_WRITES / writeMs) * 1000 };
}

async function replay(target: Target): Promise<number> {
  const namespace = 'watch-replay';
  const client = target.client(WRITERS);
  await ensureNamespace(client, namespace);
  const rv = await currentRevision(client, namespace);
  await writeLoad(client, namespace, REPLAY_EVENTS, 99);
  const start = process.hrtime.bigint();
  const w = await openWatchers(client, namespace, rv, 1);
  await waitFor(w.counters, REPLAY_EVENTS);
  w.close();
  client.close();
  const counter = w.counters[0] as Counter;
  return (REPLAY_EVENTS / (Number(counter.lastAt - start) / 1e6)) * 1000;
}

export const watchSuite: Suite = {
  name: 'watch',
  method: `Watch a namespace while ${WRITERS} writers create ${OBJECTS.toLocaleString('en-US')} ConfigMaps (~${PAYLOAD} B payload) and update them, ${LIVE_WRITES.toLocaleString('en-US')} writes in all; events/s = events / (last event received - first write sent), for 1 and ${FANOUT} watchers. Replay: ${REPLAY_EVENTS.toLocaleString('en-US')} events written first, then watched from the resourceVersion before them.`,
  async run(env) {
    const one: Record<string, number> = {};
    const oneWrites: Record<string, number> = {};
    const fanPer: Record<string, number> = {};
    const fanTotal: Record<string, number> = {};
    const replayed: Record<string, number> = {};
    for (const target of env.targets) {
      const a = await live(target, 1, 1);
      one[target.name] = a.perWatcher;
      oneWrites[target.name] = a.writesPerSecond;
      const b = await live(target, FANOUT, 2);
      fanPer[target.name] = b.perWatcher;
      fanTotal[target.name] = b.total;
      if (target.name === 'embedded') replayed[target.name] = await replay(target);
      env.log(`watch: ${target.name} 1 watcher ${Math.round(a.perWatcher)}/s, ${FANOUT} watchers ${Math.round(b.total)}/s in all`);
    }
    const goal = (v: number | undefined): { goal: string; pass: boolean } => ({ goal: `>= ${GOAL.toLocaleString('en-US')}/s`, pass: (v ?? 0) >= GOAL });
    const rows: Row[] = [
      rowOf('watch', 'live, 1 watcher', 'events/s', one, goal(one.embedded)),
      rowOf('watch', 'live, 1 watcher: writes/s meanwhile', 'writes/s', oneWrites),
      rowOf('watch', `live, ${FANOUT} watchers, slowest`, 'events/s', fanPer),
      rowOf('watch', `live, ${FANOUT} watchers, all delivered`, 'events/s', fanTotal, goal(fanTotal.embedded)),
      rowOf('watch', `replay ${REPLAY_EVENTS.toLocaleString('en-US')} events, 1 watcher`, 'events/s', replayed, goal(replayed.embedded)),
    ];
    return { rows, notes: [] };
  },
};
