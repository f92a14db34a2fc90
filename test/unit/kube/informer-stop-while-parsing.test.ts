// An informer stopped while a large watch event is parsed in slices (ADR 0026)
// delivers nothing after stop(): a handler run then acts for a stopped owner
// (the engine's on-demand kinds started a template informer that no one stopped,
// which then retried a closed upstream for ever and kept the process alive).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { startInformer } from '../../../src/kube/informer.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import type { KubeObject } from '../../../src/core/types.ts';
import { eventually } from '../../helpers/poll.ts';

describe('informer: stopped while a large event is parsed', () => {
  it('delivers no event after stop()', async () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 4_000; i++) data[`k${i}`] = 'x'.repeat(100); // ~400 KB: parsed over several turns of the loop
    const line = `${JSON.stringify({ type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'ns', resourceVersion: '2' }, data } })}\n`;
    let written = false;
    const upstream = {
      request: async () => ({ status: 200, headers: {}, body: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] } }),
      stream: async () => {
        const res = Object.assign(new PassThrough(), { statusCode: 200, headers: {} });
        setImmediate(() => { res.write(line); written = true; });
        return res as unknown as IncomingMessage;
      },
      close: () => undefined,
    } as unknown as Upstream;
    const seen: string[] = [];
    let stoppedAt = -1;
    const informer = startInformer<KubeObject>({
      upstream, listPath: '/api/v1/namespaces/ns/configmaps', log: () => undefined, backoff: { initialMs: 1, maxMs: 5 },
      onEvent: (type, obj) => seen.push(`${type} ${obj.metadata.name!}${stoppedAt >= 0 ? ' after stop' : ''}`),
    });
    try {
      await informer.synced();
      await eventually(async () => written, 'the large event is on the watch', { intervalMs: 1 });
      stoppedAt = seen.length;
      informer.stop();
      for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(stoppedAt, 0, 'stopped before the large event was handled (the parse takes turns of the loop)');
      assert.deepEqual(seen, [], 'nothing delivered after stop()');
    } finally {
      informer.stop();
    }
  });
});
