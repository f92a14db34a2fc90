import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ShardedFifo } from '../../../src/workqueue/sharded-fifo.ts';
import { createWorkQueue } from '../../../src/workqueue/work-queue.ts';

const tenantOf = (key: string): string => key.split('/')[0] ?? '';

describe('sharded FIFO (per-tenant fairness)', () => {
  it('serves a tenant with one key right after the first key of a tenant with thousands', () => {
    const fifo = new ShardedFifo(tenantOf);
    for (let i = 0; i < 10_000; i++) fifo.push(`busy/${i}`);
    fifo.push('quiet/only');
    assert.equal(fifo.shift(), 'busy/0');
    assert.equal(fifo.shift(), 'quiet/only');
    assert.equal(fifo.shift(), 'busy/1');
    assert.equal(fifo.length, 9_998);
  });

  it('keeps FIFO order within a shard and loses nothing (property)', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.nat(1000))), (pairs) => {
      const fifo = new ShardedFifo(tenantOf);
      const keys = pairs.map(([t, n], i) => `${t}/${n}-${i}`);
      for (const key of keys) fifo.push(key);
      const out: string[] = [];
      for (let key = fifo.shift(); key !== undefined; key = fifo.shift()) out.push(key);
      assert.deepEqual([...out].sort(), [...keys].sort());
      for (const shard of ['a', 'b', 'c']) {
        assert.deepEqual(out.filter((k) => tenantOf(k) === shard), keys.filter((k) => tenantOf(k) === shard));
      }
      assert.equal(fifo.length, 0);
    }));
  });

  it('makes the work queue round-robin across shards', async () => {
    const q = createWorkQueue({ shardOf: tenantOf });
    for (let i = 0; i < 5; i++) q.add(`busy/${i}`);
    q.add('quiet/x');
    const first = await q.get();
    const second = await q.get();
    assert.deepEqual([first, second], ['busy/0', 'quiet/x']);
    q.shutDown();
  });
});
