import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventRing, type CachedEvent } from '../../../../src/gateway/cache/event-ring.ts';

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
});
