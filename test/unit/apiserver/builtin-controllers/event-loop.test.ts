// The apiserver's controllers' work loop (on the shared work queue): a key queued inside a "write" is worked
// after it returns, a key queued many times is worked once, a failure is reported and not retried, and idle()
// waits for what was queued.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startWorkLoop } from '../../../../src/apiserver/builtin-controllers/event-loop.ts';

describe('apiserver work loop', () => {
  it('works a key after the write that queued it, once however often it was queued', async () => {
    const worked: string[] = [];
    const loop = startWorkLoop<string>(async (key) => { worked.push(key); }, () => undefined);
    try {
      // A store write delivering three events synchronously:
      loop.enqueue('ns/a');
      loop.enqueue('ns/b');
      loop.enqueue('ns/a');
      assert.deepEqual(worked, [], 'nothing runs inside the write');
      await loop.idle();
      assert.deepEqual(worked, ['ns/a', 'ns/b']);
    } finally {
      loop.stop();
    }
  });

  it('reports a failure and does not retry it; the next enqueue works the key again', async () => {
    const errors: string[] = [];
    let calls = 0;
    const loop = startWorkLoop<string>(() => { calls++; if (calls === 1) throw new Error('boom'); }, (err, key) => errors.push(`${key}: ${(err as Error).message}`));
    try {
      loop.enqueue('k');
      await loop.idle();
      assert.deepEqual(errors, ['k: boom']);
      assert.equal(calls, 1, 'not retried by the loop');
      loop.enqueue('k');
      await loop.idle();
      assert.equal(calls, 2);
    } finally {
      loop.stop();
    }
  });

  it('a key queued while it is worked on is worked again afterwards; idle() waits for both', async () => {
    const worked: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const loop = startWorkLoop<string>(async (key) => {
      worked.push(key);
      if (worked.length === 1) await gate;
    }, () => undefined);
    try {
      loop.enqueue('k');
      const idle = loop.idle();
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(worked, ['k'], 'first pass under way');
      loop.enqueue('k');
      release();
      await idle;
      assert.deepEqual(worked, ['k', 'k']);
    } finally {
      loop.stop();
    }
  });

  it('stop() ends the loop: nothing queued afterwards is worked, and idle() resolves', async () => {
    const worked: string[] = [];
    const loop = startWorkLoop<string>((key) => { worked.push(key); }, () => undefined);
    loop.enqueue('a');
    loop.stop();
    loop.enqueue('b');
    await loop.idle();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(worked, []);
  });
});
