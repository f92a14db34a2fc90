import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Upstream } from '../../../../src/kube/upstream.ts';
import { createFairGate, type FairGate } from '../../../../src/controllers/runtime/fair-gate.ts';
import { fairUpstream } from '../../../../src/controllers/runtime/fair-upstream.ts';

function fakeUpstream(calls: string[]): Upstream {
  return {
    server: 'https://fake',
    requestOptions: () => ({}),
    request: async (method, path) => { calls.push(`${method} ${path}`); await new Promise((r) => setImmediate(r)); return { status: 200, headers: {}, body: {} as never }; },
    stream: async () => { calls.push('stream'); return undefined as never; },
    close: () => { calls.push('close'); },
  };
}

/** A gate that records the key of every request it runs. */
function recordingGate(limit: number, keys: string[]): FairGate {
  const gate = createFairGate(limit);
  return { ...gate, run: (key, task) => { keys.push(key); return gate.run(key, task); } };
}

describe('fair upstream', () => {
  it('each request takes a slot under the key the client was made with, across awaits', async () => {
    const keys: string[] = [];
    const gate = recordingGate(8, keys);
    const calls: string[] = [];
    const raw = fakeUpstream(calls);
    const [own, acme, globex] = ['', 'acme', 'globex'].map((key) => fairUpstream(raw, gate, key));
    await own?.request('GET', '/own');
    await Promise.all([
      (async () => { await acme?.request('GET', '/a1'); await new Promise((r) => setTimeout(r, 5)); await acme?.request('GET', '/a2'); })(),
      (async () => { await new Promise((r) => setTimeout(r, 1)); await globex?.request('GET', '/g1'); })(),
    ]);
    assert.deepEqual(keys.sort(), ['', 'acme', 'acme', 'globex']);
    assert.deepEqual(calls.sort(), ['GET /a1', 'GET /a2', 'GET /g1', 'GET /own']);
  });

  it('streams (watches) pass straight through and never hold a slot', async () => {
    const gate = createFairGate(1);
    const calls: string[] = [];
    const up = fairUpstream(fakeUpstream(calls), gate, 'acme');
    let release!: () => void;
    const held = gate.run('x', () => new Promise<void>((r) => { release = r; }));
    await up.stream('/watch');
    assert.deepEqual(calls, ['stream'], 'the stream opened while the only slot was taken');
    release();
    await held;
    up.close();
    assert.deepEqual(calls, ['stream', 'close']);
  });
});
