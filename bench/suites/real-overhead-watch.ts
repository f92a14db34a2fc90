// Watch measurements for real-overhead: the same events seen by a watch straight
// on the apiserver and one through the gateway, opened at the same time.
import type { BenchClient } from '../http-client.ts';
import { expectStatus } from '../load.ts';

interface Watcher { name: string; client: BenchClient; ns: string }
interface WatchEvent { type: string; object: { metadata?: { name?: string; resourceVersion?: string } } }

/** Splits a watch stream into events: chunks do not align with event lines, so buffer to the newline. */
function eventReader(onEvent: (e: WatchEvent) => void): (text: string) => void {
  let pending = '';
  return (text) => {
    pending += text;
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim()) onEvent(JSON.parse(line) as WatchEvent);
      nl = pending.indexOf('\n');
    }
  };
}

const watchPath = (ns: string, rv: string): string => `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}&allowWatchBookmarks=false`;

/**
 * Both watches open from the namespace's current version; then each name is updated one
 * at a time through `writer`, and the next write waits until both watches saw the last.
 * Latency per event and side = when it arrived - when its write was sent.
 */
export async function liveWatchLatencies(options: { writer: BenchClient; writerNs: string; watchers: Watcher[]; names: string[] }): Promise<{ latencies: Record<string, number[]>; versionBefore: string }> {
  const list = await options.writer.request('GET', `/api/v1/namespaces/${options.writerNs}/configmaps?limit=1`);
  expectStatus(list, 200);
  const versionBefore = String((JSON.parse(list.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
  const latencies: Record<string, number[]> = Object.fromEntries(options.watchers.map((w) => [w.name, []]));
  let sentAt = 0n;
  let current = '';
  let waiting: Set<string> = new Set();
  let arrived: () => void = () => undefined;
  const streams = await Promise.all(options.watchers.map((w) => w.client.stream(watchPath(w.ns, versionBefore), eventReader((e) => {
    if (e.type !== 'MODIFIED' || e.object.metadata?.name !== current || !waiting.has(w.name)) return;
    latencies[w.name]!.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
    waiting.delete(w.name);
    if (waiting.size === 0) arrived();
  }))));
  try {
    for (const s of streams) if (s.status !== 200) throw new Error(`watch answered ${s.status}`);
    for (const [i, name] of options.names.entries()) {
      current = name;
      waiting = new Set(options.watchers.map((w) => w.name));
      const both = new Promise<void>((resolve, reject) => {
        arrived = resolve;
        setTimeout(() => reject(new Error(`watch event for ${name} missing after 30 s on: ${[...waiting].join(', ')}`)), 30_000).unref();
      });
      sentAt = process.hrtime.bigint();
      const patch = await options.writer.request('PATCH', `/api/v1/namespaces/${options.writerNs}/configmaps/${name}`, JSON.stringify({ metadata: { annotations: { 'bench/seq': String(i) } } }), 'application/merge-patch+json');
      expectStatus(patch, 200);
      await both;
    }
  } finally {
    for (const s of streams) s.close();
  }
  return { latencies, versionBefore };
}

/** Per side, one at a time: a watch from `fromVersion`, timed until `events` events are in. */
export async function replayDuration(options: { watchers: Watcher[]; fromVersion: string; events: number }): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const w of options.watchers) {
    let seen = 0;
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve, reject) => {
      done = resolve;
      setTimeout(() => reject(new Error(`replay on ${w.name}: ${seen} of ${options.events} events after 60 s`)), 60_000).unref();
    });
    const t = process.hrtime.bigint();
    const stream = await w.client.stream(watchPath(w.ns, options.fromVersion), eventReader(() => {
      seen++;
      if (seen === options.events) done();
    }));
    try {
      if (stream.status !== 200) throw new Error(`replay watch on ${w.name} answered ${stream.status}`);
      await all;
      out[w.name] = Number(process.hrtime.bigint() - t) / 1e6;
    } finally {
      stream.close();
    }
  }
  return out;
}
