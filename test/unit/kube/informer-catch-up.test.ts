import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createCatchUp } from '../../../src/kube/informer-catch-up.ts';
import type { Informer } from '../../../src/kube/informer.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import type { KubeObject } from '../../../src/core/types.ts';
import { PROGRESS_REQUEST_HEADER } from '../../../src/core/progress-headers.ts';

const PROBE = '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings';

interface FakeInformer { rv: number; progress: boolean }

function informers(...fakes: FakeInformer[]): Informer<KubeObject>[] {
  return fakes.map((f) => ({ lastSyncResourceVersion: () => String(f.rv), notifiesProgress: () => f.progress }) as unknown as Informer<KubeObject>);
}

/** An upstream whose version is `rv`; each probe is recorded, answered after `delayMs`. */
function upstreamAt(state: { rv: number; probes: Array<Record<string, string> | undefined>; delayMs?: number }): Upstream {
  return {
    request: async (_method: string, _path: string, _body?: unknown, headers?: Record<string, string>) => {
      state.probes.push(headers);
      const rv = state.rv;
      await new Promise((r) => setTimeout(r, state.delayMs ?? 0));
      return { status: 200, headers: {}, body: { metadata: { resourceVersion: String(rv) }, items: [] } };
    },
  } as unknown as Upstream;
}

// The catch-up's deadline, its polling and the fake upstream's delays all run on
// node:test's fake clock (setTimeout and Date): each step below happens at an
// exact fake time, however busy the machine is.
beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
afterEach(() => mock.timers.reset());

/** Advances the fake clock 1 ms at a time, letting promises run between steps, until `p` settles (bounded). */
async function settle<T>(p: Promise<T>, limitMs = 5_000): Promise<{ value: T; atMs: number }> {
  let settled: { value: T } | undefined;
  void p.then((value) => { settled = { value }; });
  const start = Date.now();
  for (let i = 0; i <= limitMs; i++) {
    await new Promise((r) => setImmediate(r));
    if (settled) return { value: settled.value, atMs: Date.now() - start };
    mock.timers.tick(1);
  }
  throw new Error(`not settled after ${limitMs} ms of fake time`);
}

describe('informer catch-up before a refusal', () => {
  it('waits until every informer reaches the probed version, asking for progress', async () => {
    const a = { rv: 10, progress: true };
    const b = { rv: 12, progress: true };
    const state = { rv: 15, probes: [] as Array<Record<string, string> | undefined> };
    const catchUp = createCatchUp(upstreamAt(state), informers(a, b), PROBE);
    const result = catchUp(1_000);
    setTimeout(() => { a.rv = 15; }, 20);
    setTimeout(() => { b.rv = 16; }, 40);
    const { value, atMs } = await settle(result);
    assert.equal(value, true);
    assert.ok(atMs >= 40 && atMs <= 45, `answered at ${atMs} ms: after the slower informer got there, within one poll`);
    assert.equal(state.probes.length, 1);
    assert.equal(state.probes[0]?.[PROGRESS_REQUEST_HEADER], 'true');
  });

  it('gives up at the deadline when an informer never gets there', async () => {
    const state = { rv: 15, probes: [] as Array<Record<string, string> | undefined> };
    const { value, atMs } = await settle(createCatchUp(upstreamAt(state), informers({ rv: 10, progress: true }), PROBE)(60));
    assert.equal(value, false);
    assert.ok(atMs >= 60 && atMs <= 65, `gave up at ${atMs} ms: at the deadline, within one poll`);
  });

  it('does not even probe an upstream that does not bookmark on request', async () => {
    const state = { rv: 15, probes: [] as Array<Record<string, string> | undefined> };
    assert.equal(await createCatchUp(upstreamAt(state), informers({ rv: 10, progress: true }, { rv: 10, progress: false }), PROBE)(1_000), false);
    assert.equal(state.probes.length, 0);
  });

  it('callers during a probe share one follow-up probe, read after them', async () => {
    const informer = { rv: 20, progress: true };
    const state = { rv: 20, probes: [] as Array<Record<string, string> | undefined>, delayMs: 30 };
    const catchUp = createCatchUp(upstreamAt(state), informers(informer), PROBE);
    const first = catchUp(1_000);
    await settle(new Promise((r) => setTimeout(r, 5)));
    // A write lands after the first probe read the version: the later callers need a newer probe.
    state.rv = 21;
    const later = Array.from({ length: 5 }, () => catchUp(200));
    assert.equal((await settle(first)).value, true);
    setTimeout(() => { informer.rv = 21; }, 10);
    assert.deepEqual((await settle(Promise.all(later))).value, [true, true, true, true, true]);
    assert.equal(state.probes.length, 2, 'six callers, two probes');
  });
});
