// The simulator's worker over the shared queue: a conflict comes back soon, another failure after its backoff,
// and a long backlog of synchronous reconciles lets the event loop turn.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { createWorkQueue } from '../../../../src/workqueue/work-queue.ts';
import { startSimWorker } from '../../../../src/apiserver/simulator/sim-worker.ts';
import { eventually } from '../../../helpers/poll.ts';

describe('simulator worker', () => {
  it('retries a key that conflicted, and one that failed otherwise, until it succeeds', async () => {
    const queue = createWorkQueue({ backoff: { initialMs: 10, maxMs: 50 } });
    const calls = new Map<string, number>();
    const lines: string[] = [];
    const worker = startSimWorker(queue, (key) => {
      const n = (calls.get(key) ?? 0) + 1;
      calls.set(key, n);
      if (n === 1) throw key === 'c' ? new ApiError('Conflict', 'the object has been modified') : new Error('boom');
    }, (line) => lines.push(line));
    try {
      queue.add('c');
      queue.add('f');
      await eventually(async () => calls.get('c') === 2 && calls.get('f') === 2, 'both keys retried', { intervalMs: 5 });
      assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), [{ level: 'warn', msg: 'simulator: reconcile f failed: boom' }], 'a single conflict is not logged; another failure is, as a warning');
    } finally {
      worker.stop();
    }
  });

  it('yields to the event loop inside a long backlog of synchronous reconciles', async () => {
    const queue = createWorkQueue();
    let done = 0;
    let doneWhenTimerRan: number | undefined;
    const worker = startSimWorker(queue, () => { done++; }, () => undefined);
    try {
      for (let i = 0; i < 2_000; i++) queue.add(`k${i}`);
      setImmediate(() => { doneWhenTimerRan = done; });
      await eventually(async () => done === 2_000, 'every key reconciled', { intervalMs: 5 });
      assert.ok(doneWhenTimerRan !== undefined && doneWhenTimerRan < 2_000, `the immediate ran after ${doneWhenTimerRan} of 2000 keys`);
    } finally {
      worker.stop();
    }
  });

  it('reconciles a key queued inside a reconcile only after that reconcile returns', async () => {
    const queue = createWorkQueue();
    const order: string[] = [];
    const worker = startSimWorker(queue, (key) => {
      order.push(`start ${key}`);
      if (key === 'a') queue.add('b');
      order.push(`end ${key}`);
    }, () => undefined);
    try {
      queue.add('a');
      await eventually(async () => order.length === 4, 'both keys reconciled', { intervalMs: 5 });
      assert.deepEqual(order, ['start a', 'end a', 'start b', 'end b']);
    } finally {
      worker.stop();
    }
  });
});
