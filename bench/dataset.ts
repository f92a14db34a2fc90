// The shared data set: namespace "bench" with 10,000 ConfigMaps of about 1 KiB,
// written by the writes suite and read by the get and list suites.
import type { BenchClient } from './http-client.ts';
import { expectStatus, runConcurrent, type LoadResult } from './load.ts';
import { cmPath, configMap, namespaceBody } from './fixtures.ts';

export const DATASET = { namespace: 'bench', count: 10_000, payloadBytes: 900 } as const;

export const datasetName = (i: number): string => `cm-${String(i).padStart(5, '0')}`;

export async function ensureNamespace(client: BenchClient, name: string): Promise<void> {
  expectStatus(await client.request('POST', '/api/v1/namespaces', namespaceBody(name)), 201, 409);
}

/** Creates `count` ConfigMaps named by `nameOf` with `concurrency` requests in flight; returns the timings. */
export async function createConfigMaps(client: BenchClient, options: {
  namespace: string; count: number; payloadBytes: number; concurrency: number; nameOf?: (i: number) => string;
}): Promise<LoadResult> {
  const nameOf = options.nameOf ?? datasetName;
  await ensureNamespace(client, options.namespace);
  return runConcurrent(options.concurrency, options.count, async (i) => {
    expectStatus(await client.request('POST', cmPath(options.namespace), configMap(options.namespace, nameOf(i), options.payloadBytes, i)), 201);
  });
}
