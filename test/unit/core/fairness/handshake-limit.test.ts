import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HandshakeLimit } from '../../../../src/core/fairness/handshake-limit.ts';

describe('HandshakeLimit', () => {
  it('starts at its ceiling', () => {
    const limit = new HandshakeLimit({ max: 16, min: 1 });
    assert.equal(limit.current(), 16);
    assert.equal(limit.atCeiling(), true);
  });

  it('halves while the loop is over its delay target, down to the floor', () => {
    const limit = new HandshakeLimit({ max: 16, min: 1 });
    assert.deepEqual([2, 3, 1.01, 5, 9].map((p) => limit.tick(p)), [8, 4, 2, 1, 1]);
    assert.equal(limit.atCeiling(), false);
  });

  it('grows by one per window at or under the target, up to the ceiling', () => {
    const limit = new HandshakeLimit({ max: 4, min: 1 });
    limit.tick(2);
    limit.tick(2);
    assert.equal(limit.current(), 1);
    assert.deepEqual([0, 0.5, 1, 0, 0].map((p) => limit.tick(p)), [2, 3, 4, 4, 4]);
    assert.equal(limit.atCeiling(), true);
  });

  it('never goes under its floor', () => {
    const limit = new HandshakeLimit({ max: 16, min: 3 });
    for (let i = 0; i < 10; i++) limit.tick(100);
    assert.equal(limit.current(), 3);
  });
});
