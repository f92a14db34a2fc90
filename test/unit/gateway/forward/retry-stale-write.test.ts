// The one retry rule of the gateway's read-modify-write paths: a pass is made again only when its own pinned
// write met 409 "the object has been modified", at most five passes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { UpstreamResponse } from '../../../../src/kube/upstream.ts';
import { isStaleWrite, MAX_ATTEMPTS, retryStaleWrite } from '../../../../src/gateway/forward/retry-stale-write.ts';

const status = (code: number, reason: string, message: string): UpstreamResponse =>
  ({ status: code, headers: {}, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message } }) as unknown as UpstreamResponse;
const stale = status(409, 'Conflict', 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again');
const fieldConflict = status(409, 'Conflict', 'Apply failed with 1 conflict: conflict with "kubectl" using apps/v1: .spec.replicas');
const ok = { status: 200, headers: {}, body: {} } as unknown as UpstreamResponse;

describe('retryStaleWrite', () => {
  it('knows a stale write from other 409s and other codes', () => {
    assert.equal(isStaleWrite(stale), true);
    assert.equal(isStaleWrite(fieldConflict), false, 'an apply field conflict is the caller\'s to see');
    assert.equal(isStaleWrite(status(409, 'AlreadyExists', 'the object has been modified')), false);
    assert.equal(isStaleWrite(status(422, 'Invalid', 'the object has been modified')), false);
    assert.equal(isStaleWrite(ok), false);
  });

  it('makes the pass again while its own pin is stale, at most five times', async () => {
    let passes = 0;
    const answer = await retryStaleWrite(async () => ({ result: ++passes, written: stale, pinnedHere: true }));
    assert.equal(MAX_ATTEMPTS, 5);
    assert.equal(passes, 5);
    assert.equal(answer, 5, 'the last pass answers');
  });

  it('retries once per stale write and stops at the first other answer (property)', async () => {
    const answerArb = fc.constantFrom('stale', 'field-conflict', 'ok', 'not-written');
    await fc.assert(fc.asyncProperty(fc.array(answerArb, { minLength: 1, maxLength: 8 }), fc.boolean(), async (answers, pinnedHere) => {
      let passes = 0;
      await retryStaleWrite(async () => {
        const kind = answers[Math.min(passes++, answers.length - 1)];
        if (kind === 'not-written') return { result: passes, pinnedHere };
        return { result: passes, written: kind === 'stale' ? stale : kind === 'ok' ? ok : fieldConflict, pinnedHere };
      });
      const staleRun = answers.findIndex((a) => a !== 'stale');
      const expected = !pinnedHere ? 1 : Math.min(MAX_ATTEMPTS, (staleRun === -1 ? Infinity : staleRun + 1));
      // Past the array's end the last answer repeats; when every answer is stale, the cap ends it.
      assert.equal(passes, expected);
    }));
  });

  it('never retries the tenant\'s own precondition', async () => {
    let passes = 0;
    await retryStaleWrite(async () => ({ result: ++passes, written: stale, pinnedHere: false }));
    assert.equal(passes, 1);
  });

  it('lets a thrown refusal through without another pass', async () => {
    let passes = 0;
    await assert.rejects(retryStaleWrite(async () => { passes++; throw new Error('refused by admission'); }), /refused by admission/);
    assert.equal(passes, 1);
  });
});
