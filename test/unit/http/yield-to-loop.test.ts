// The one size test for stepped work (ADR 0026): the gateway's request body, its answer, the
// informer's watch lines and the embedded apiserver's bodies all ask isLarge, so the threshold
// is the same for each of them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isLarge, STEP_BODY_BYTES } from '../../../src/http/yield-to-loop.ts';

describe('isLarge', () => {
  const cases: [number, boolean][] = [[0, false], [1_069, false], [STEP_BODY_BYTES - 1, false], [STEP_BODY_BYTES, true], [STEP_BODY_BYTES + 1, true], [3 * 2 ** 20, true]];
  for (const [size, large] of cases) {
    it(`${size} → ${large ? 'stepped' : 'one turn'}`, () => assert.equal(isLarge(size), large));
  }
  it('the threshold is 64 KiB', () => assert.equal(STEP_BODY_BYTES, 64 * 1024));
});
