// Server memory with 100,000 small objects: a fresh embedded server and a
// fresh floor are each loaded with 100,000 ConfigMaps (~100 B payload) over
// HTTP, then their resident set is read from /proc/<pid>/status. The embedded
// server is then restarted on the same data directory, to show the cost of
// loading the durable store (time to ready, RSS after load).
import { startEmbedded, startFloor, type Target } from '../targets/targets.ts';
import { createConfigMaps } from '../dataset.ts';
import { rowOf, type Suite } from '../suite.ts';
import { msSince } from '../stats.ts';
import { rmSync } from 'node:fs';

const OBJECTS = 100_000;
const NAMESPACES = 10;
const PAYLOAD = 100;
const CONCURRENCY = 32;
const SETTLE_MS = 3_000;
const GOAL_MIB = 300;

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, SETTLE_MS));
const mib = (kib: number): number => kib / 1024;

async function load(target: Target): Promise<number> {
  const client = target.client(CONCURRENCY);
  const perNamespace = OBJECTS / NAMESPACES;
  let ms = 0;
  for (let n = 0; n < NAMESPACES; n++) {
    const r = await createConfigMaps(client, { namespace: `mem-${n}`, count: perNamespace, payloadBytes: PAYLOAD, concurrency: CONCURRENCY, nameOf: (i) => `small-${i}` });
    ms += r.elapsedMs;
  }
  client.close();
  return (OBJECTS / ms) * 1000;
}

export const memorySuite: Suite = {
  name: 'memory',
  method: `Fresh servers loaded with ${OBJECTS.toLocaleString('en-US')} ConfigMaps (~${PAYLOAD} B payload, ${NAMESPACES} namespaces) over HTTP, ${CONCURRENCY} clients; VmRSS of the server process ${SETTLE_MS / 1000} s after the load; then the embedded server is restarted on its data directory.`,
  async run(env) {
    const embedded = await startEmbedded({ repoRoot: env.repoRoot, nodeFlags: env.serverNodeFlags });
    const dataDir = embedded.dataDir;
    const floor = await startFloor({ repoRoot: env.repoRoot });
    const empty: Record<string, number> = {};
    const loaded: Record<string, number> = {};
    const peak: Record<string, number> = {};
    const rate: Record<string, number> = {};
    try {
      for (const target of [embedded, floor]) {
        empty[target.name] = mib(target.process.memory().rssKiB);
        rate[target.name] = await load(target);
        await settle();
        const m = target.process.memory();
        loaded[target.name] = mib(m.rssKiB);
        peak[target.name] = mib(m.peakKiB);
        env.log(`memory: ${target.name} ${loaded[target.name]?.toFixed(0)} MiB with ${OBJECTS} objects`);
      }
    } finally {
      await floor.stop();
      await embedded.process.stop(); // keep the data directory for the restart
    }
    const start = process.hrtime.bigint();
    const restarted = await startEmbedded({ repoRoot: env.repoRoot, dataDir, nodeFlags: env.serverNodeFlags });
    const readyMs = msSince(start);
    await settle();
    const after = restarted.process.memory();
    await restarted.stop();
    rmSync(dataDir, { recursive: true, force: true });
    const restartedRss = mib(after.rssKiB);
    return {
      rows: [
        rowOf('memory', 'RSS, empty server', 'MiB', empty),
        rowOf('memory', `RSS, ${OBJECTS.toLocaleString('en-US')} small objects`, 'MiB', loaded, { goal: `< ${GOAL_MIB} MiB`, pass: (loaded.embedded ?? Infinity) < GOAL_MIB }),
        rowOf('memory', 'RSS peak during load (VmHWM)', 'MiB', peak),
        rowOf('memory', `RSS after restart with ${OBJECTS.toLocaleString('en-US')} objects`, 'MiB', { embedded: restartedRss }, { goal: `< ${GOAL_MIB} MiB`, pass: restartedRss < GOAL_MIB }),
        rowOf('memory', 'restart to ready', 'ms', { embedded: readyMs }),
        rowOf('memory', 'load rate (small creates)', 'writes/s', rate),
      ],
      notes: [],
    };
  },
};
