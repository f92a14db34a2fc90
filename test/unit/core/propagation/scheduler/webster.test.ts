import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { allocateWebsterSeats, type Party } from '../../../../../src/core/propagation/scheduler/webster.ts';

const seats = (n: number, parties: Party[]) => Object.fromEntries(allocateWebsterSeats(n, parties));
const votes = (v: Record<string, number>): Party[] => Object.entries(v).map(([name, n]) => ({ name, votes: n }));

test('Karmada published vectors', () => {
  assert.deepEqual(seats(9, votes({ a: 1, b: 2 })), { a: 3, b: 6 });
  assert.deepEqual(seats(12, votes({ a: 3, b: 2, c: 1 })), { a: 6, b: 4, c: 2 });
  // assignment.go's "approximate assignment" row: 9 at 1:3 → 2:7.
  assert.deepEqual(seats(9, votes({ a: 1, b: 3 })), { a: 2, b: 7 });
  assert.deepEqual(seats(4, votes({ Alpha: 1200, Beta: 900, Gamma: 400 })), { Alpha: 2, Beta: 1, Gamma: 1 });
});

test('the Sainte-Laguë example, round by round (as in Karmada webstermethod_test.go)', () => {
  const parties = votes({ A: 100000, B: 80000, C: 30000, D: 20000 });
  const rounds = [[1, 0, 0, 0], [1, 1, 0, 0], [2, 1, 0, 0], [2, 1, 1, 0], [2, 2, 1, 0], [2, 2, 1, 1], [3, 2, 1, 1], [3, 3, 1, 1]];
  rounds.forEach((want, i) => assert.deepEqual(Object.values(seats(i + 1, parties)), want, `round ${i + 1}`));
});

test('ties: fewer seats, then name; previous replicas first', () => {
  assert.deepEqual(seats(1, votes({ b: 1, a: 1 })), { b: 0, a: 1 });
  assert.deepEqual(seats(5, votes({ m1: 1, m2: 1 })), { m1: 3, m2: 2 });
  // The same tie, but m2 held the odd replica before: it keeps it.
  assert.deepEqual(seats(5, [{ name: 'm1', votes: 1, previous: 2 }, { name: 'm2', votes: 1, previous: 3 }]), { m1: 2, m2: 3 });
  // Equal priority 3/(2·1+1) = 1/(2·0+1): the party with fewer seats wins.
  const r = allocateWebsterSeats(3, votes({ x: 3, y: 1 }));
  assert.deepEqual(Object.fromEntries(r), { x: 2, y: 1 });
  assert.deepEqual(seats(10, votes({ a: 1, b: 1, c: 1, d: 1 })), { a: 3, b: 3, c: 2, d: 2 });
});

test('zero-vote parties get nothing while others have votes; empty input', () => {
  assert.deepEqual(seats(5, votes({ a: 0, b: 2 })), { a: 0, b: 5 });
  assert.deepEqual(seats(3, []), {});
});

const partiesArb = fc.uniqueArray(fc.record({ name: fc.string({ minLength: 1, maxLength: 4 }), votes: fc.integer({ min: 1, max: 1000 }) }),
  { minLength: 1, maxLength: 8, selector: (p) => p.name });

test('property: hands out exactly n seats, and never takes a seat away when n grows', () => {
  fc.assert(fc.property(partiesArb, fc.integer({ min: 0, max: 60 }), (parties, n) => {
    const now = allocateWebsterSeats(n, parties);
    const next = allocateWebsterSeats(n + 1, parties);
    assert.equal([...now.values()].reduce((s, x) => s + x, 0), n);
    for (const p of parties) assert.ok((next.get(p.name) ?? 0) >= (now.get(p.name) ?? 0));
  }));
});

test('property: within one seat of the exact quota (Webster stays near proportional)', () => {
  fc.assert(fc.property(partiesArb, fc.integer({ min: 1, max: 60 }), (parties, n) => {
    const total = parties.reduce((s, p) => s + p.votes, 0);
    for (const [name, got] of allocateWebsterSeats(n, parties)) {
      const quota = (n * (parties.find((p) => p.name === name)?.votes ?? 0)) / total;
      assert.ok(Math.abs(got - quota) < parties.length, `${name}: ${got} vs ${quota}`);
    }
  }));
});
