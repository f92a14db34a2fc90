import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventRing, approximateBytes, type CachedEvent } from '../../../../src/gateway/cache/event-ring.ts';

const ev = (rv: number): CachedEvent => ({ rv, type: 'MODIFIED', object: { metadata: { name: String(rv) } }, previous: undefined, owner: 'abc123', key: String(rv) });

describe('EventRing', () => {
  it('replays the events after a version, oldest first', () => {
    const ring = new EventRing(10, 100);
    for (const rv of [101, 102, 105]) ring.push(ev(rv));
    assert.deepEqual(ring.since(100)?.map((e) => e.rv), [101, 102, 105]);
    assert.deepEqual(ring.since(102)?.map((e) => e.rv), [105]);
    assert.deepEqual(ring.since(105), []);
    assert.deepEqual(ring.since(103)?.map((e) => e.rv), [105]);
  });

  it('expires versions older than its start', () => {
    const ring = new EventRing(10, 100);
    assert.equal(ring.since(99), undefined);
  });

  it('moves its start when it drops the oldest event', () => {
    const ring = new EventRing(3, 100);
    for (const rv of [101, 102, 103, 104, 105]) ring.push(ev(rv));
    assert.equal(ring.length, 3);
    assert.equal(ring.start, 102);
    assert.equal(ring.since(101), undefined);
    assert.deepEqual(ring.since(102)?.map((e) => e.rv), [103, 104, 105]);
  });

  it('forgets everything on reset', () => {
    const ring = new EventRing(3, 100);
    ring.push(ev(101));
    ring.reset(150);
    assert.equal(ring.since(101), undefined);
    assert.deepEqual(ring.since(150), []);
  });

  it('drops the oldest events to stay within its byte budget, and moves its start past them', () => {
    const ring = new EventRing(100, 100, 1000);
    for (const rv of [101, 102, 103]) ring.push(ev(rv), 400);
    // 1,200 bytes would not fit: 101 went.
    assert.equal(ring.length, 2);
    assert.equal(ring.bytes, 800);
    assert.equal(ring.since(100), undefined);
    assert.deepEqual(ring.since(101)?.map((e) => e.rv), [102, 103]);
    // One event bigger than the budget is still kept (alone): a watch can resume just before it.
    ring.push(ev(104), 5000);
    assert.equal(ring.length, 1);
    assert.deepEqual(ring.since(103)?.map((e) => e.rv), [104]);
    ring.reset(200);
    assert.equal(ring.bytes, 0);
  });

  it('estimates an object by its JSON size, closely enough for a budget', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', labels: { a: 'b' }, resourceVersion: '12' }, data: { v: 'x'.repeat(100_000) } };
    const json = JSON.stringify(obj).length;
    const estimate = approximateBytes(obj);
    assert.ok(estimate >= json * 0.9 && estimate <= json * 1.5, `estimate ${String(estimate)} for ${String(json)} bytes of JSON`);
  });
});
