// Adversarial timing for the informer's sliced parse (ADR 0026): every watch
// stream carries a large event (parsed in slices, with turns of the loop) and
// small ones after it in the same chunk, and is cut while the large one is
// being parsed. Nothing may be lost, repeated or reordered: what arrived before
// the cut is handled before the next watch starts, and the next watch resumes
// from the last event handled. The upstream is a fake that serves an event log
// from the requested resourceVersion, so the cut lands where this test puts it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { startInformer } from '../../../src/kube/informer.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import type { KubeObject } from '../../../src/core/types.ts';
import { eventually } from '../../helpers/poll.ts';

interface LoggedEvent { type: 'ADDED' | 'MODIFIED' | 'DELETED'; name: string; rv: number; big: boolean }

function eventLine(e: LoggedEvent): string {
  const data: Record<string, string> = { seq: String(e.rv) };
  // ~200 KB: over the informer's 64 KiB threshold and the slicer's 16 KiB slice, so it takes several turns.
  if (e.big) for (let i = 0; i < 2_000; i++) data[`k${i}`] = 'x'.repeat(100);
  return `${JSON.stringify({ type: e.type, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: e.name, namespace: 'ns', resourceVersion: String(e.rv) }, data } })}\n`;
}

/** A watch upstream over `log`: each stream writes every event after the requested version in one chunk, then is cut on the next turn. */
function cuttingUpstream(log: LoggedEvent[]): Upstream & { watchedFrom: number[] } {
  const watchedFrom: number[] = [];
  return {
    watchedFrom,
    request: async () => ({ status: 200, headers: {}, body: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] } }),
    stream: async (path: string) => {
      const from = Number(new URLSearchParams(path.split('?')[1]).get('resourceVersion'));
      watchedFrom.push(from);
      const res = Object.assign(new PassThrough(), { statusCode: 200, headers: {} });
      const rest = log.filter((e) => e.rv > from);
      // One big event per stream at most, first, so each stream is cut while parsing it.
      const firstBig = rest.findIndex((e) => e.big);
      const batch = firstBig === -1 ? rest : rest.slice(0, rest.findIndex((e, i) => i > firstBig && e.big) === -1 ? rest.length : rest.findIndex((e, i) => i > firstBig && e.big));
      setImmediate(() => {
        res.write(batch.map(eventLine).join(''));
        setImmediate(() => res.destroy());
      });
      return res as unknown as IncomingMessage;
    },
    close: () => undefined,
  } as unknown as Upstream & { watchedFrom: number[] };
}

describe('informer: a watch cut while a large event is parsed in slices', () => {
  it('handles every event once, in order, and resumes from the last one handled', async () => {
    const log: LoggedEvent[] = [];
    let rv = 1;
    for (let round = 0; round < 4; round++) {
      log.push({ type: round === 0 ? 'ADDED' : 'MODIFIED', name: 'big', rv: ++rv, big: true });
      log.push({ type: 'ADDED', name: `small${round}`, rv: ++rv, big: false });
      log.push({ type: 'MODIFIED', name: `small${round}`, rv: ++rv, big: false });
    }
    log.push({ type: 'DELETED', name: 'small0', rv: ++rv, big: false });
    const upstream = cuttingUpstream(log);
    const seen: string[] = [];
    const informer = startInformer<KubeObject>({
      upstream, listPath: '/api/v1/namespaces/ns/configmaps', log: () => undefined, backoff: { initialMs: 1, maxMs: 5 },
      onEvent: (type, obj) => seen.push(`${type} ${obj.metadata.name!} ${obj.metadata.resourceVersion!}`),
    });
    try {
      await informer.synced();
      await eventually(async () => seen.length >= log.length, `all ${log.length} events (seen ${seen.length})`, { intervalMs: 20 });
      assert.deepEqual(seen, log.map((e) => `${e.type} ${e.name} ${e.rv}`));
      assert.ok(upstream.watchedFrom.length >= 4, `one cut watch per large event: ${upstream.watchedFrom.join(', ')}`);
      // Each watch resumes exactly after what the previous one delivered (nothing skipped, nothing replayed).
      for (const from of upstream.watchedFrom.slice(1)) assert.ok(log.some((e) => e.rv === from), `resumed from ${from}, an event it handled`);
      assert.equal(informer.store.get('ns/big')?.metadata.resourceVersion, String(log.filter((e) => e.name === 'big').at(-1)!.rv));
      assert.equal(informer.store.has('ns/small0'), false);
    } finally {
      informer.stop();
    }
  });
});
