import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ceilScaled, parseQuantity, subtract } from '../../../../../src/core/propagation/scheduler/quantity.ts';

test('parseQuantity: Value() and MilliValue() round up exactly', () => {
  const cases: Array<[string, bigint, bigint]> = [
    ['1', 1n, 1000n], ['100m', 1n, 100n], ['0.1', 1n, 100n], ['1.5', 2n, 1500n], ['1Ki', 1024n, 1024000n],
    ['8Gi', 8n * 2n ** 30n, 8n * 2n ** 30n * 1000n], ['1e3', 1000n, 1000000n], ['2k', 2000n, 2000000n],
    ['1n', 1n, 1n], ['.5', 1n, 500n], ['-1', -1n, -1000n], ['0', 0n, 0n],
  ];
  for (const [text, value, milli] of cases) {
    const q = parseQuantity(text);
    assert.ok(q, text);
    assert.equal(ceilScaled(q, 1n), value, `${text} Value()`);
    assert.equal(ceilScaled(q, 1000n), milli, `${text} MilliValue()`);
  }
});

test('parseQuantity rejects what kube rejects', () => {
  for (const bad of ['', 'abc', '1x', '1.2.3', 'Gi', '1e999']) assert.equal(parseQuantity(bad), undefined, bad);
});

test('subtract is exact across suffixes', () => {
  const q = subtract(parseQuantity('2')!, parseQuantity('500m')!);
  assert.equal(ceilScaled(q, 1000n), 1500n);
  assert.equal(ceilScaled(subtract(parseQuantity('1')!, parseQuantity('1500m')!), 1n), 0n); // ceil(-0.5)
});
