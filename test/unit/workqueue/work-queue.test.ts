import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkQueue, type WorkQueue } from '../../../src/workqueue/work-queue.ts';

// Delays run on node:test's fake clock (setTimeout and Date), so what the tests
// say about them is exact and does not depend on how busy the machine is.
beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'] }));
afterEach(() => mock.timers.reset());

/** Milliseconds of fake time until a key is waiting, stepping 1 ms (bounded). */
function msUntilWaiting(q: WorkQueue, limitMs = 10_000): number {
  for (let ms = 0; ms <= limitMs; ms++) {
    if (q.length() > 0) return ms;
    mock.timers.tick(1);
  }
  throw new Error(`no key waiting after ${limitMs} ms`);
}

describe('work queue', () => {
  it('holds a key once however often it is added', async () => {
    const q = createWorkQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.length(), 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
    q.shutDown();
  });

  it('never hands a key being processed to a second worker; re-queues it when done', async () => {
    const q = createWorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    assert.equal(q.length(), 0, 'not queued while processing');
    q.done(key ?? '');
    assert.equal(q.length(), 1, 'queued again once done');
    q.shutDown();
  });

  it('delays with addAfter (earliest delay wins) and drops the later timers', async () => {
    const q = createWorkQueue();
    q.addAfter('a', 200);
    q.addAfter('a', 50);
    q.addAfter('a', 400);
    assert.equal(msUntilWaiting(q), 50);
    assert.equal(await q.get(), 'a');
    q.done('a');
    mock.timers.tick(1_000);
    assert.equal(q.length(), 0, 'the 200 and 400 ms delays were dropped');
    q.shutDown();
  });

  it('delivers a delayed key to a worker already waiting', async () => {
    const q = createWorkQueue();
    const got = q.get();
    q.addAfter('a', 30);
    mock.timers.tick(30);
    assert.equal(await got, 'a');
    q.shutDown();
  });

  it('backs off per key on failures and forgets on success', async () => {
    const q = createWorkQueue({ backoff: { initialMs: 20, maxMs: 1000, random: () => 1 } });
    const failOnce = async (): Promise<number> => {
      q.addRateLimited('k');
      const ms = msUntilWaiting(q);
      q.done((await q.get()) ?? '');
      return ms;
    };
    assert.deepEqual([await failOnce(), await failOnce(), await failOnce()], [20, 40, 80]);
    q.addRateLimited('other');
    assert.equal(msUntilWaiting(q), 20, 'another key has its own backoff');
    q.done((await q.get()) ?? '');
    q.forget('k');
    assert.equal(await failOnce(), 20, 'forgotten: back to the initial delay');
    q.shutDown();
  });

  it('answers undefined to waiting workers at shutdown', async () => {
    const q = createWorkQueue();
    const waiting = q.get();
    q.shutDown();
    assert.equal(await waiting, undefined);
    q.add('x');
    assert.equal(await q.get(), undefined);
  });
});
