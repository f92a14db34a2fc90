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

/** An upstream whose watch sends one large ADDED line, then calls `afterWrite` in the same turn. */
function upstreamWithLargeEvent(afterWrite: () => void): Upstream {
  const data: Record<string, string> = {};
  for (let i = 0; i < 4_000; i++) data[`k${i}`] = 'x'.repeat(100); // ~400 KB: parsed over several turns of the loop
  const line = `${JSON.stringify({ type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'ns', resourceVersion: '2' }, data } })}\n`;
  return {
    request: async () => ({ status: 200, headers: {}, body: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] } }),
    stream: async () => {
      const res = Object.assign(new PassThrough(), { statusCode: 200, headers: {} });
      setImmediate(() => { res.write(line); afterWrite(); });
      return res as unknown as IncomingMessage;
    },
    close: () => undefined,
  } as unknown as Upstream;
}

function informerOn(upstream: Upstream, seen: string[]) {
  return startInformer<KubeObject>({
    upstream, listPath: '/api/v1/namespaces/ns/configmaps', log: () => undefined, backoff: { initialMs: 1, maxMs: 5 },
    onEvent: (type, obj) => seen.push(`${type} ${obj.metadata.name!}`),
  });
}

describe('informer: stopped while a large event is parsed', () => {
  it('the large event is delivered when the informer runs on (the control case)', async () => {
    const seen: string[] = [];
    const informer = informerOn(upstreamWithLargeEvent(() => undefined), seen);
    try {
      await eventually(async () => seen.length > 0, 'the large event is delivered', { intervalMs: 5 });
      assert.deepEqual(seen, ['ADDED big']);
    } finally {
      informer.stop();
    }
  });

  it('delivers no event after stop(), called in the turn the event arrived (its parse takes later turns)', async () => {
    const seen: string[] = [];
    let stop = (): void => undefined;
    let stopped = false;
    const informer = informerOn(upstreamWithLargeEvent(() => { stop(); stopped = true; }), seen);
    stop = () => informer.stop();
    try {
      await eventually(async () => stopped, 'the large event was written and the informer stopped', { intervalMs: 1 });
      for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(seen, [], 'nothing delivered after stop()');
    } finally {
      informer.stop();
    }
  });
});
