// LIST of the whole data set (10,000 ConfigMaps of ~1 KiB, ~12 MB of JSON),
// one request at a time, timed until the last byte is in; the median of N.
// Rounds interleave the targets (embedded, floor, floor-tls, embedded, ...) so
// that load from elsewhere on a shared machine hits every target alike.
import { DATASET } from '../dataset.ts';
import { cmPath } from '../fixtures.ts';
import { expectStatus } from '../load.ts';
import { median, msSince, percentile } from '../stats.ts';
import { rowOf, type Suite } from '../suite.ts';

const RUNS = 21;
const WARMUP = 3;

export const listSuite: Suite = {
  name: 'list',
  method: `LIST all ${DATASET.count.toLocaleString('en-US')} ConfigMaps of namespace "${DATASET.namespace}" (no limit), one at a time, time to last byte (client drops the body); median and max of ${RUNS} rounds after ${WARMUP} warm-up rounds, targets interleaved.`,
  async run(env) {
    const clients = env.targets.map((t) => ({ target: t, client: t.client(1), samples: [] as number[], bytes: 0 }));
    for (const c of clients) {
      // Once, outside the timing: the response really holds the whole data set.
      const reply = await c.client.request('GET', cmPath(DATASET.namespace));
      expectStatus(reply, 200);
      const count = (JSON.parse(reply.body) as { items: unknown[] }).items.length;
      // The embedded server adds kube-root-ca.crt to every namespace, as kube-controller-manager does.
      if (count < DATASET.count) throw new Error(`list on ${c.target.name}: expected ${DATASET.count} items, got ${count}`);
      c.bytes = reply.bytes;
    }
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const c of clients) {
        const start = process.hrtime.bigint();
        const reply = await c.client.drain(cmPath(DATASET.namespace));
        const ms = msSince(start);
        expectStatus(reply, 200);
        if (round >= WARMUP) c.samples.push(ms);
      }
    }
    const med: Record<string, number> = {};
    const max: Record<string, number> = {};
    const bytes: Record<string, number> = {};
    for (const c of clients) {
      c.client.close();
      med[c.target.name] = median(c.samples);
      max[c.target.name] = percentile(c.samples, 100);
      bytes[c.target.name] = c.bytes / 1e6;
      env.log(`list: ${c.target.name} median ${med[c.target.name]?.toFixed(1)} ms`);
    }
    const ratio = (med.embedded ?? NaN) / (med.floor ?? NaN);
    return {
      rows: [
        rowOf('list', `LIST ${DATASET.count.toLocaleString('en-US')} x 1 KiB, median`, 'ms', med, { goal: '<= 2x floor (http)', pass: ratio <= 2 }),
        rowOf('list', 'LIST max', 'ms', max),
        rowOf('list', 'response size', 'MB', bytes),
        { suite: 'list', metric: 'embedded / floor (http)', unit: 'x', embedded: ratio },
      ],
      notes: [],
    };
  },
};
