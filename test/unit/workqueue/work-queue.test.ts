import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkQueue } from '../../../src/workqueue/work-queue.ts';

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

  it('delivers to a waiting worker and delays with addAfter (earliest delay wins)', async () => {
    const q = createWorkQueue();
    const started = Date.now();
    q.addAfter('a', 200);
    q.addAfter('a', 50);
    q.addAfter('a', 400);
    assert.equal(await q.get(), 'a');
    const waited = Date.now() - started;
    assert.ok(waited >= 40 && waited < 190, `waited ${waited}`);
    q.shutDown();
  });

  it('backs off per key on failures and forgets on success', async () => {
    const q = createWorkQueue({ backoff: { initialMs: 20, maxMs: 1000, random: () => 1 } });
    const time = async (): Promise<number> => {
      const t = Date.now();
      q.addRateLimited('k');
      const key = await q.get();
      q.done(key ?? '');
      return Date.now() - t;
    };
    const first = await time();
    const second = await time();
    const third = await time();
    assert.ok(first < second && second < third, `${first} ${second} ${third}`);
    q.forget('k');
    assert.ok((await time()) < second);
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
