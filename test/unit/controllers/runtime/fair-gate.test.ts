import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createFairGate } from '../../../../src/controllers/runtime/fair-gate.ts';

/** A task that finishes when told to, recording when it started. */
function controllable(log: string[], name: string): { task: () => Promise<string>; finish(): void; fail(err: Error): void } {
  let done!: (v: string) => void;
  let failed!: (e: Error) => void;
  const p = new Promise<string>((res, rej) => { done = res; failed = rej; });
  return { task: () => { log.push(name); return p; }, finish: () => done(name), fail: (e) => failed(e) };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('fair gate', () => {
  it('runs at most `limit` tasks at once', async () => {
    const gate = createFairGate(2);
    const log: string[] = [];
    const tasks = ['a1', 'a2', 'a3'].map((n) => controllable(log, n));
    const results = tasks.map((t) => gate.run('a', t.task));
    await tick();
    assert.deepEqual(log, ['a1', 'a2']);
    assert.equal(gate.running(), 2);
    assert.equal(gate.waiting(), 1);
    tasks[0]?.finish();
    assert.equal(await results[0], 'a1');
    await tick();
    assert.deepEqual(log, ['a1', 'a2', 'a3']);
    tasks[1]?.finish();
    tasks[2]?.finish();
    assert.deepEqual(await Promise.all(results), ['a1', 'a2', 'a3']);
    assert.equal(gate.running(), 0);
  });

  it("a tenant's backlog does not queue ahead of another tenant's request: turns go round", async () => {
    const gate = createFairGate(1);
    const log: string[] = [];
    const tasks = new Map<string, ReturnType<typeof controllable>>();
    const submit = (key: string, name: string): Promise<string> => {
      const t = controllable(log, name);
      tasks.set(name, t);
      return gate.run(key, t.task);
    };
    const all = [...['a0', 'a1', 'a2', 'a3', 'a4'].map((n) => submit('a', n)), submit('b', 'b0'), ...['c0', 'c1'].map((n) => submit('c', n))];
    // One at a time: finish whichever started last, until all have run.
    while (log.length < all.length || gate.running() > 0) {
      await tick();
      tasks.get(log[log.length - 1] ?? '')?.finish();
      await tick();
    }
    await Promise.all(all);
    // a0 ran at once and a1 was already in line before b and c came; after that, each of a, b, c in turn.
    assert.deepEqual(log, ['a0', 'a1', 'b0', 'c0', 'a2', 'c1', 'a3', 'a4']);
  });

  it('a failing or throwing task frees its slot and rejects only its own caller', async () => {
    const gate = createFairGate(1);
    const log: string[] = [];
    const failing = controllable(log, 'x');
    const first = gate.run('a', failing.task);
    const thrown = gate.run('a', () => { throw new Error('sync'); });
    const after = gate.run('b', async () => 'ok');
    failing.fail(new Error('boom'));
    await assert.rejects(first, /boom/);
    await assert.rejects(thrown, /sync/);
    assert.equal(await after, 'ok');
    assert.equal(gate.running(), 0);
    assert.equal(gate.waiting(), 0);
  });

  it('refuses a limit below one', () => {
    assert.throws(() => createFairGate(0), RangeError);
  });
});
