// Writes per second: creates of 1 KiB ConfigMaps with 32 requests in flight.
// This suite also seeds the data set that the get and list suites read.
import { DATASET, createConfigMaps } from '../dataset.ts';
import { percentile } from '../stats.ts';
import { rowOf, type Suite } from '../suite.ts';

const CONCURRENCY = 32;

export const writesSuite: Suite = {
  name: 'writes',
  method: `POST ${DATASET.count.toLocaleString('en-US')} ConfigMaps (~1 KiB) into one namespace, ${CONCURRENCY} concurrent keep-alive clients; embedded writes go to its durable log.`,
  async run(env) {
    const rate: Record<string, number> = {};
    const p50: Record<string, number> = {};
    const p99: Record<string, number> = {};
    for (const target of env.targets) {
      const client = target.client(CONCURRENCY);
      const result = await createConfigMaps(client, { ...DATASET, concurrency: CONCURRENCY });
      client.close();
      rate[target.name] = result.perSecond;
      p50[target.name] = percentile(result.latencies, 50);
      p99[target.name] = percentile(result.latencies, 99);
      env.log(`writes: ${target.name} ${Math.round(result.perSecond)}/s`);
    }
    return {
      rows: [
        rowOf('writes', `creates, ${CONCURRENCY} clients`, 'writes/s', rate),
        rowOf('writes', 'create latency p50', 'ms', p50),
        rowOf('writes', 'create latency p99', 'ms', p99),
      ],
      notes: [],
    };
  },
};
