// What the store's JSON fast path (store/json-store.ts: getJson/listJson) would
// save the HTTP layer, measured in process on the registry the server uses:
//   current = what resource-handlers.ts does today: registry.get/list (one
//             JSON.parse per object in the store) then JSON.stringify for the wire;
//   fast    = the stored JSON text as is: getJson, or listJson joined into a list.
// Both produce the same bytes for built-in kinds (checked below, not assumed).
import { startApiServer } from '../../src/apiserver/server.ts';
import { isJsonStore } from '../../src/apiserver/store/json-store.ts';
import type { KubeObject } from '../../src/core/types.ts';
import { DATASET, datasetName } from '../dataset.ts';
import { configMap } from '../fixtures.ts';
import { median, msSince } from '../stats.ts';
import type { Suite } from '../suite.ts';

const LIST_RUNS = 21;
const GETS = 20_000;

function timeMedian(runs: number, f: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = process.hrtime.bigint();
    f();
    if (i >= 2) samples.push(msSince(start));
  }
  return median(samples);
}

/** Microseconds per call, over `n` calls. */
function timePerCall(n: number, f: (i: number) => unknown): number {
  for (let i = 0; i < 1_000; i++) f(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  return (msSince(start) * 1000) / n;
}

export const jsonFastPathSuite: Suite = {
  name: 'json-fast-path',
  method: `In process, on an in-memory server holding the same ${DATASET.count.toLocaleString('en-US')} ConfigMaps: response-body cost of GET and LIST today (registry object, JSON.stringify) against the store's stored JSON text (getJson, listJson joined); LIST median of ${LIST_RUNS}, GET mean of ${GETS.toLocaleString('en-US')}.`,
  async run(env) {
    const server = await startApiServer({});
    try {
      const { registry } = server;
      const store = registry.store;
      if (!isJsonStore(store)) throw new Error('the store does not offer the JSON fast path');
      const nsDef = registry.lookup('', 'v1', 'namespaces');
      const def = registry.lookup('', 'v1', 'configmaps');
      if (!nsDef || !def) throw new Error('namespaces or configmaps not served');
      registry.create(nsDef, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: DATASET.namespace } });
      for (let i = 0; i < DATASET.count; i++) {
        registry.create(def, DATASET.namespace, JSON.parse(configMap(DATASET.namespace, datasetName(i), DATASET.payloadBytes, i)) as KubeObject);
      }
      const storageKey = registry.catalog.storageKey(def);
      const listQuery = { namespace: DATASET.namespace };
      const current = (): string => JSON.stringify(registry.list(def, listQuery));
      const fast = (): string => {
        const page = store.listJson(storageKey, listQuery);
        const metadata = JSON.stringify({ resourceVersion: String(page.revision) });
        return `{"apiVersion":"v1","kind":"ConfigMapList","metadata":${metadata},"items":[${page.items.join(',')}]}`;
      };
      if (current() !== fast()) throw new Error('fast-path LIST body differs from the current one');
      // The floor's cost for the same body: objects already parsed, one JSON.stringify.
      const held = registry.list(def, listQuery);
      const listCurrent = timeMedian(LIST_RUNS, current);
      const listFast = timeMedian(LIST_RUNS, fast);
      const listFloor = timeMedian(LIST_RUNS, () => JSON.stringify(held));
      const keyOf = (i: number): { resource: string; namespace: string; name: string } => registry.key(def, DATASET.namespace, datasetName((i * 7919) % DATASET.count));
      const getCurrent = timePerCall(GETS, (i) => JSON.stringify(registry.get(def, DATASET.namespace, keyOf(i).name)));
      const getFast = timePerCall(GETS, (i) => store.getJson(keyOf(i)));
      env.log(`json-fast-path: LIST ${listCurrent.toFixed(1)} -> ${listFast.toFixed(1)} ms, GET ${getCurrent.toFixed(1)} -> ${getFast.toFixed(1)} us`);
      return {
        rows: [
          { suite: 'json-fast-path', metric: 'LIST body, today (parse + stringify)', unit: 'ms', embedded: listCurrent, floor: listFloor },
          { suite: 'json-fast-path', metric: 'LIST body, listJson joined', unit: 'ms', embedded: listFast },
          { suite: 'json-fast-path', metric: 'LIST body saved per request', unit: 'ms', embedded: listCurrent - listFast },
          { suite: 'json-fast-path', metric: 'GET body, today (parse + stringify)', unit: 'us', embedded: getCurrent },
          { suite: 'json-fast-path', metric: 'GET body, getJson', unit: 'us', embedded: getFast },
        ],
        notes: ['floor column of "LIST body, today": JSON.stringify of already-parsed objects, what the floor server pays per LIST.'],
      };
    } finally {
      await server.stop();
    }
  },
};
