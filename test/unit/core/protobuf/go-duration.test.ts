import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatGoDuration, parseGoDuration } from '../../../../src/core/protobuf/go-duration.ts';

// Expected strings are Go's time.Duration.String() outputs.
const table: [bigint, string][] = [
  [0n, '0s'], [1n, '1ns'], [1_100n, '1.1µs'], [2_200_000n, '2.2ms'], [300_000_000n, '300ms'],
  [1_500_000_000n, '1.5s'], [61_000_000_000n, '1m1s'], [3_600_000_000_000n, '1h0m0s'],
  [5_400_000_000_000n, '1h30m0s'], [-90_000_000_000n, '-1m30s'], [100_000_000_000_000n, '27h46m40s'],
];

describe('Go durations', () => {
  for (const [ns, text] of table) {
    it(`${ns}ns ⇄ ${text}`, () => {
      assert.equal(formatGoDuration(ns), text);
      assert.equal(parseGoDuration(text), ns);
    });
  }
  it('parses forms Go accepts but never prints', () => {
    assert.equal(parseGoDuration('1.5h'), 5_400_000_000_000n);
    assert.equal(parseGoDuration('90s'), 90_000_000_000n);
    assert.equal(parseGoDuration('0'), 0n);
    assert.equal(parseGoDuration('1us'), 1000n);
  });
  it('rejects junk', () => {
    for (const bad of ['', '1', 'h', '1x', '-', '.s']) assert.throws(() => parseGoDuration(bad), /invalid duration/);
  });
  it('parse(format(d)) == d for every int64', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(2n ** 63n) + 1n, max: 2n ** 63n - 1n }), (ns) => parseGoDuration(formatGoDuration(ns)) === ns));
  });
});
