import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ageSince, humanDuration } from '../../../../src/core/table/human-duration.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (duration.HumanDuration vectors)', () => {
  const cases: Array<[number, string]> = [
    [-2 * S, '<invalid>'], [-1 * S, '0s'], [-1999, '0s'], [0, '0s'], [1 * S, '1s'], [5 * S, '5s'], [119 * S, '119s'],
    [2 * M, '2m'], [2 * M + 3 * S, '2m3s'], [9 * M + 59 * S, '9m59s'], [10 * M, '10m'], [10 * M + 30 * S, '10m'],
    [179 * M, '179m'], [3 * H, '3h'], [3 * H + 2 * M, '3h2m'], [7 * H + 59 * M, '7h59m'], [8 * H, '8h'], [47 * H, '47h'],
    [48 * H, '2d'], [2 * D + 3 * H, '2d3h'], [7 * D + 23 * H, '7d23h'], [8 * D, '8d'], [120 * D, '120d'], [729 * D, '729d'],
    [730 * D, '2y'], [731 * D, '2y1d'], [8 * 365 * D, '8y'], [10 * 365 * D + 100 * D, '10y'],
  ];
  for (const [ms, want] of cases) it(`${ms}ms → ${want}`, () => assert.equal(humanDuration(ms), want));

  it('anything under two minutes prints as whole seconds', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 119 }), (s) => humanDuration(s * S) === `${s}s`));
  });

  it('ageSince handles missing and real timestamps', () => {
    const now = new Date('2024-01-01T01:00:00Z');
    assert.equal(ageSince(undefined, now), '<unknown>');
    assert.equal(ageSince('2024-01-01T00:57:57Z', now), '2m3s');
  });
});
