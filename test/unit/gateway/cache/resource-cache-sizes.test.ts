// The shared cache's event ring is bounded by bytes (ringMaxBytes). A watch event is
// sized from its own JSON line, as the upstream sent it (the informer passes it),
// instead of walking the parsed object: the walk cost ~2/3 of the event's parse on
// every event. A relist's synthesised events have no line and are still walked (ADR 0042).
import fc from 'fast-check';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceCache } from '../../../../src/gateway/cache/resource-cache.ts';
import { approximateBytes, approximateTextBytes } from '../../../../src/gateway/cache/event-ring.ts';
import { startInformer } from '../../../../src/kube/informer.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { eventually } from '../../../helpers/poll.ts';
import { FakeUpstream } from './fake-upstream.ts';

const PATH = '/api/v1/configmaps';
const cm = (name: string, payload: string): KubeObject => ({ metadata: { name, namespace: 'abc123-ns', labels: { 'tenancy.warren.dev/tenant': 'abc123' } }, data: { payload } } as KubeObject);

describe('informer: each watch event carries its JSON line', () => {
  it('watch events come with their line; events a LIST synthesises with none', async () => {
    const up = new FakeUpstream(PATH, 'ConfigMapList', 'v1');
    up.apply('ADDED', cm('listed', 'a'));
    const seen: { name: string; text: string | undefined }[] = [];
    const informer = startInformer<KubeObject>({ upstream: up, listPath: PATH, log: () => undefined, onEvent: (_t, obj, _old, text) => seen.push({ name: obj.metadata.name!, text }) });
    try {
      await informer.synced();
      await eventually(async () => up.streams.size > 0, 'the watch is open', { intervalMs: 2 });
      up.apply('ADDED', cm('watched', 'x'.repeat(500)));
      // A line past the step size (ADR 0026) is parsed in slices: it still comes along.
      up.apply('MODIFIED', cm('watched', 'y'.repeat(70 * 1024)));
      await eventually(async () => seen.length === 3, 'three events', { intervalMs: 2 });
      const lines = up.history.slice(1).map((h) => h.line.slice(0, -1)); // without the LF
      assert.deepEqual(seen, [{ name: 'listed', text: undefined }, { name: 'watched', text: lines[0] }, { name: 'watched', text: lines[1] }]);
    } finally {
      informer.stop();
      up.close();
    }
  });
});

describe('shared cache ring: sized by the event text', () => {
  it('events whose lines exceed ringMaxBytes push the oldest out (history ends, resuming before it is refused)', async () => {
    const up = new FakeUpstream(PATH, 'ConfigMapList', 'v1');
    const cache = new ResourceCache({ upstream: up, listPath: PATH, ownerRule: { crdNames: false }, ringCapacity: 1_000, ringMaxBytes: 5_000, log: () => undefined });
    try {
      await cache.synced();
      await eventually(async () => cache.isSynced() && up.streams.size > 0, 'synced, watching', { intervalMs: 2 });
      const start = cache.oldestRv();
      // Each line is ~2,2xx characters: two fit in 5,000 bytes, a third pushes the first out.
      const rvs = [1, 2, 3].map((i) => Number(up.apply('ADDED', cm(`o${i}`, 'z'.repeat(2_000))).metadata.resourceVersion));
      await eventually(async () => cache.currentRv() >= rvs[2]!, 'the cache saw all three', { intervalMs: 2 });
      assert.equal(cache.oldestRv(), rvs[0], 'the first event was dropped for bytes, not count');
      assert.ok(cache.oldestRv() > start);
      assert.equal(cache.eventsSince('abc123', start), undefined, 'resuming from before the first event is refused');
      assert.deepEqual(cache.eventsSince('abc123', rvs[0]!)?.map((e) => e.object.metadata.name), ['o2', 'o3']);
    } finally {
      cache.stop();
      up.close();
    }
  });
});

describe('approximateTextBytes: the text estimate never counts far below the walk', () => {
  it('for any JSON value, the estimate from its text is at least ~0.88x the walk (approximateBytes), less a constant', () => {
    // The worst shape is an array of one-digit numbers: 2 characters each in JSON, 9 for the walk. Without the
    // per-comma allowance a hostile tenant's number arrays would be counted at ~2/9 of the walk, and the ring
    // would hold ~4x the memory its byte bound names.
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = JSON.stringify(value);
      assert.ok(approximateTextBytes(text) >= 0.88 * approximateBytes(value) - 16, `${approximateTextBytes(text)} vs ${approximateBytes(value)} for ${text.slice(0, 80)}`);
    }), { numRuns: 2_000 });
  });

  it('hostile dense shapes, and a ConfigMap, by table', () => {
    const shapes: unknown[] = [
      Array(30_000).fill(1),
      Array(30_000).fill(null),
      Array(30_000).fill([]),
      Object.fromEntries(Array.from({ length: 8_000 }, (_, i) => [`k${i}`, {}])),
      Object.fromEntries(Array.from({ length: 8_000 }, (_, i) => [`k${i}`, 0])),
      { metadata: { name: 'wt-00001', namespace: 'abc123-bench', labels: { 'tenancy.warren.dev/tenant': 'abc123' } }, data: { payload: 'x'.repeat(900) } },
    ];
    for (const value of shapes) {
      const text = JSON.stringify(value);
      assert.ok(approximateTextBytes(text) >= 0.88 * approximateBytes(value), text.slice(0, 40));
    }
  });
});
