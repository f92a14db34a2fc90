import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { createInFlight } from '../../../../src/gateway/fairness/in-flight.ts';
import { setDrainHook } from '../../../../src/gateway/fairness/drain-hook.ts';

// Just enough of a ServerResponse: close, destroy, finished flags.
function fakeResponse(): ServerResponse & { destroyedByDrain: boolean } {
  const res = new EventEmitter() as unknown as ServerResponse & { destroyedByDrain: boolean };
  Object.assign(res, { writableFinished: false, destroyed: false, destroyedByDrain: false });
  (res as unknown as { destroy(): void }).destroy = () => {
    res.destroyedByDrain = true;
    res.emit('close');
  };
  return res;
}

describe('in-flight drain', () => {
  it('resolves at once when nothing is open', async () => {
    assert.equal(await createInFlight().drain(1_000), 0);
  });

  it('ends long-running responses through their hook and waits for the others', async () => {
    const inFlight = createInFlight();
    const watch = fakeResponse();
    const get = fakeResponse();
    inFlight.track(watch, true);
    inFlight.track(get, false);
    let hookCalled = false;
    setDrainHook(watch, () => {
      hookCalled = true;
      watch.emit('close');
    });
    assert.deepEqual(inFlight.count(), { requests: 1, longRunning: 1 });
    const drained = inFlight.drain(5_000);
    assert.equal(inFlight.draining, true);
    assert.equal(hookCalled, true);
    setTimeout(() => get.emit('close'), 20);
    assert.equal(await drained, 0);
    assert.equal(get.destroyedByDrain, false);
  });

  it('cuts what is still open at the deadline', async () => {
    const inFlight = createInFlight();
    const slow = fakeResponse();
    const logs = fakeResponse();
    inFlight.track(slow, false);
    inFlight.track(logs, true); // no hook: cut soon, never ended under its writer
    assert.equal(await inFlight.drain(300), 1);
    assert.equal(slow.destroyedByDrain, true);
    assert.equal(logs.destroyedByDrain, true);
  });

  it('finds a hook registered after the drain began', async () => {
    const inFlight = createInFlight();
    const watch = fakeResponse();
    inFlight.track(watch, true);
    const drained = inFlight.drain(5_000);
    setTimeout(() => setDrainHook(watch, () => watch.emit('close')), 10);
    assert.equal(await drained, 0);
    assert.equal(watch.destroyedByDrain, false);
  });

  it('a request tracked on arrival and found long-running later (a watch) is counted once, then ended as a watch by the drain', async () => {
    const inFlight = createInFlight();
    const watch = fakeResponse();
    inFlight.track(watch, false); // authenticated, waiting for its turn, body or seat
    assert.deepEqual(inFlight.count(), { requests: 1, longRunning: 0 });
    inFlight.track(watch, true);
    assert.deepEqual(inFlight.count(), { requests: 0, longRunning: 1 });
    let hookCalled = false;
    setDrainHook(watch, () => {
      hookCalled = true;
      watch.emit('close');
    });
    assert.equal(await inFlight.drain(5_000), 0);
    assert.equal(hookCalled, true);
  });
});
