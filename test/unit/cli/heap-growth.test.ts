// limitHeapGrowth (ADR 0040) refuses what V8 would misread: its flag parser takes
// "--heap-growing-percent=-1" or "=1.5" without complaint, so a bad value must stop
// here, before the process runs with a factor nobody chose.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { limitHeapGrowth } from '../../../src/cli/heap-growth.ts';

describe('limitHeapGrowth', () => {
  for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    it(`refuses ${bad}`, () => {
      assert.throws(() => limitHeapGrowth(bad), (err: unknown) => err instanceof RangeError && /whole number >= 0/.test(err.message));
    });
  }
  it('takes 0 (V8 keeps its own factor) and a whole percent', () => {
    assert.doesNotThrow(() => limitHeapGrowth(0));
    assert.doesNotThrow(() => limitHeapGrowth(25));
  });
});
