// GET of one object by name over keep-alive: sequential (one client, one
// request at a time: pure latency) and with a few concurrent clients.
// Targets take turns in blocks, so load from elsewhere hits every target alike.
import { DATASET, datasetName } from '../dataset.ts';
import { cmPath } from '../fixtures.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import { percentile } from '../stats.ts';
import { rowOf, type Suite } from '../suite.ts';
import type { BenchClient } from '../http-client.ts';

const SEQUENTIAL = 6_000;
const CONCURRENT_CLIENTS = 4;
const CONCURRENT_TOTAL = 12_000;
const BLOCKS = 6;
const WARMUP = 1_000;
const GOAL_MS = 1;

interface Sampled {
  name: string;
  client: BenchClient;
  seq: number[];
  conc: number[];
  concMs: number;
}

function getter(client: BenchClient): (i: number) => Promise<void> {
  return async (i) => {
    const name = datasetName((i * 7919) % DATASET.count); // a fixed spread over the keys, same for every target
    expectStatus(await client.request('GET', cmPath(DATASET.namespace, name)), 200);
  };
}

export const getSuite: Suite = {
  name: 'get',
  method: `GET one ~1 KiB ConfigMap by name (spread over ${DATASET.count.toLocaleString('en-US')}): ${SEQUENTIAL.toLocaleString('en-US')} sequential, then ${CONCURRENT_TOTAL.toLocaleString('en-US')} from ${CONCURRENT_CLIENTS} concurrent clients; ${WARMUP.toLocaleString('en-US')} warm-up requests; targets take turns in ${BLOCKS} blocks.`,
  async run(env) {
    const all: Sampled[] = env.targets.map((t) => ({ name: t.name, client: t.client(CONCURRENT_CLIENTS), seq: [], conc: [], concMs: 0 }));
    for (const s of all) await runConcurrent(CONCURRENT_CLIENTS, WARMUP, getter(s.client));
    for (let block = 0; block < BLOCKS; block++) {
      for (const s of all) s.seq.push(...(await runConcurrent(1, SEQUENTIAL / BLOCKS, getter(s.client))).latencies);
    }
    for (let block = 0; block < BLOCKS; block++) {
      for (const s of all) {
        const r = await runConcurrent(CONCURRENT_CLIENTS, CONCURRENT_TOTAL / BLOCKS, getter(s.client));
        s.conc.push(...r.latencies);
        s.concMs += r.elapsedMs;
      }
    }
    for (const s of all) s.client.close();
    const col = (f: (s: Sampled) => number): Record<string, number> => Object.fromEntries(all.map((s) => [s.name, f(s)]));
    const seqP50 = col((s) => percentile(s.seq, 50));
    const concP50 = col((s) => percentile(s.conc, 50));
    env.log(`get: sequential p50 ${JSON.stringify(seqP50)}`);
    return {
      rows: [
        rowOf('get', 'sequential p50', 'ms', seqP50, { goal: `< ${GOAL_MS} ms`, pass: (seqP50.embedded ?? NaN) < GOAL_MS }),
        rowOf('get', 'sequential p99', 'ms', col((s) => percentile(s.seq, 99))),
        rowOf('get', `${CONCURRENT_CLIENTS} clients p50`, 'ms', concP50, { goal: `< ${GOAL_MS} ms`, pass: (concP50.embedded ?? NaN) < GOAL_MS }),
        rowOf('get', `${CONCURRENT_CLIENTS} clients p99`, 'ms', col((s) => percentile(s.conc, 99))),
        rowOf('get', `${CONCURRENT_CLIENTS} clients throughput`, 'req/s', col((s) => (s.conc.length / s.concMs) * 1000)),
      ],
      notes: [],
    };
  },
};
