// fieldWalkOf (ADR 0026) replaced, in an update's managedFields bookkeeping,
// "parse every member's path back and look its value up from the root in both
// objects". Property: for any pair of Deployments (keyed lists, nested keyed
// lists, set-like and atomic lists, labels maps) the walk gives the same set as
// fieldSetOf, and the changed members are the ones the old per-path way found.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fieldSetOf, fieldWalkOf, parentsOf, valueAt, type FieldPath } from '../../../../src/core/patch/fields-v1.ts';
import { deepEqual } from '../../../../src/core/patch/json-value.ts';
import type { JsonMap } from '../../../../src/core/patch/json-value.ts';
import { DEPLOYMENT, deployment } from './deployment-arbitrary.ts';

/** The way it was done before fieldWalkOf. */
function changedByPaths(previous: JsonMap, next: JsonMap): string[] {
  const before = fieldSetOf(previous, DEPLOYMENT);
  const after = fieldSetOf(next, DEPLOYMENT);
  const parents = before.size > 0 ? parentsOf(after) : undefined;
  return [...after].filter((p) => {
    if (!before.has(p)) return true;
    if (parents?.has(p)) return false;
    const path = JSON.parse(p) as FieldPath;
    return !deepEqual(valueAt(previous, path), valueAt(next, path));
  });
}

function changedByWalk(previous: JsonMap, next: JsonMap): string[] {
  const before = fieldWalkOf(previous, DEPLOYMENT);
  const walked = fieldWalkOf(next, DEPLOYMENT);
  return [...walked.set].filter((p) => !before.set.has(p) || (!walked.parents.has(p) && !deepEqual(before.values.get(p), walked.values.get(p))));
}

describe('fieldWalkOf', () => {
  it('gives the same set as fieldSetOf', () => {
    fc.assert(fc.property(deployment, (obj) => {
      assert.deepEqual([...fieldWalkOf(obj, DEPLOYMENT).set], [...fieldSetOf(obj, DEPLOYMENT)]);
    }), { numRuns: 300 });
  });

  it('finds the same changed members as parsing each path back', () => {
    fc.assert(fc.property(deployment, deployment, (previous, next) => {
      assert.deepEqual(changedByWalk(previous, next), changedByPaths(previous, next));
    }), { numRuns: 500 });
  });

  it('records, per member, what valueAt finds', () => {
    fc.assert(fc.property(deployment, (obj) => {
      const walk = fieldWalkOf(obj, DEPLOYMENT);
      for (const p of walk.set) assert.deepEqual(walk.values.get(p), valueAt(obj, JSON.parse(p) as FieldPath), p);
    }), { numRuns: 300 });
  });
});
