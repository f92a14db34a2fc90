import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff } from '../../../src/core/backoff.ts';

describe('Backoff', () => {
  const cases = [
    { name: 'no jitter (random = 1) doubles from 100 ms and caps at 5 s', random: 1, expected: [100, 200, 400, 800, 1600, 3200, 5000, 5000] },
    { name: 'full jitter (random = 0) halves each step', random: 0, expected: [50, 100, 200, 400, 800, 1600, 2500, 2500] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const backoff = new Backoff({ random: () => c.random });
      assert.deepEqual(c.expected.map(() => backoff.next()), c.expected);
    });
  }

  it('starts over after reset()', () => {
    const backoff = new Backoff({ initialMs: 10, maxMs: 1000, random: () => 1 });
    backoff.next();
    backoff.next();
    backoff.reset();
    assert.equal(backoff.next(), 10);
  });

  it('stays finite after many failures', () => {
    const backoff = new Backoff({ random: () => 1 });
    for (let i = 0; i < 2000; i++) backoff.next();
    assert.equal(backoff.next(), 5000);
  });
});
