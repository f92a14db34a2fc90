import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Upstream } from '../../../../src/kube/upstream.ts';
import { createFairGate, type FairGate } from '../../../../src/controllers/runtime/fair-gate.ts';
import { fairUpstream } from '../../../../src/controllers/runtime/fair-upstream.ts';
import { currentTenant, runForTenant } from '../../../../src/controllers/runtime/tenant-scope.ts';

function fakeUpstream(calls: string[]): Upstream {
  return {
    server: 'https://fake',
    requestOptions: () => ({}),
    request: async (method, path) => { calls.push(`${method} ${path}`); await new Promise((r) => setImmediate(r)); return { status: 200, headers: {}, body: {} as never }; },
    stream: async () => { calls.push('stream'); return undefined as never; },
    close: () => { calls.push('close'); },
  };
}

describe('fair upstream and tenant scope', () => {
  it('each request takes a slot under the tenant whose work made it, across awaits', async () => {
    const keys: string[] = [];
    const gate = createFairGate(8);
    const recording: FairGate = { ...gate, run: (key, task) => { keys.push(key); return gate.run(key, task); } };
    const calls: string[] = [];
    const up = fairUpstream(fakeUpstream(calls), recording, currentTenant);
    await up.request('GET', '/own');
    await Promise.all([
      runForTenant('acme', async () => { await up.request('GET', '/a1'); await new Promise((r) => setTimeout(r, 5)); await up.request('GET', '/a2'); }),
      runForTenant('globex', async () => { await new Promise((r) => setTimeout(r, 1)); await up.request('GET', '/g1'); }),
    ]);
    assert.deepEqual(keys.sort(), ['', 'acme', 'acme', 'globex']);
    assert.deepEqual(calls.sort(), ['GET /a1', 'GET /a2', 'GET /g1', 'GET /own']);
  });

  it('streams (watches) pass straight through and never hold a slot', async () => {
    const gate = createFairGate(1);
    const calls: string[] = [];
    const up = fairUpstream(fakeUpstream(calls), gate, currentTenant);
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
