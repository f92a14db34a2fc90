// trackUpdateCarrying (ADR 0026) hands a write's field walk and manager sets to
// the next write of the same object, instead of walking the stored object and
// parsing its managedFields again. Property: over any sequence of writes by a
// few managers (keyed, set-like and atomic lists, labels, duplicates), every
// write gives exactly the object the uncarried bookkeeping gives, including
// after a caller mutated the object it had handed in (carried values are
// looked up, never kept by reference).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { trackUpdate, trackUpdateCarrying, type CarriedFields } from '../../../../src/core/patch/track-update.ts';
import type { JsonMap } from '../../../../src/core/patch/json-value.ts';
import { fromFieldsV1, toFieldsV1 } from '../../../../src/core/patch/fields-v1.ts';
import { DEPLOYMENT, deployment } from './deployment-arbitrary.ts';

const write = fc.record({ object: deployment, manager: fc.constantFrom('kubectl', 'hpa', 'ci'), subresource: fc.constantFrom(undefined, undefined, 'scale') });

/** What the store does between writes: the next write reads a parse of the stored text. */
const stored = (obj: JsonMap): JsonMap => JSON.parse(JSON.stringify(obj)) as JsonMap;

describe('trackUpdateCarrying', () => {
  it('gives every write of a sequence the object the uncarried bookkeeping gives', () => {
    fc.assert(fc.property(fc.array(write, { minLength: 1, maxLength: 6 }), fc.boolean(), (writes, mutate) => {
      let plain: JsonMap | undefined;
      let carriedLive: JsonMap | undefined;
      let carried: CarriedFields | undefined;
      writes.forEach((w, i) => {
        const now = `2026-11-26T10:00:0${String(i)}Z`;
        const common = { manager: w.manager, now, apiVersion: 'apps/v1', typeName: DEPLOYMENT, subresource: w.subresource };
        const expected = trackUpdate({ ...common, previous: plain, next: structuredClone(w.object) });
        const input = structuredClone(w.object);
        const got = trackUpdateCarrying({ ...common, previous: carriedLive, next: input, carried });
        assert.deepEqual(got.object, expected, `write ${String(i)}`);
        // The trees kept from the stored entries are the ones a rebuild would give.
        for (const entry of ((got.object.metadata as JsonMap).managedFields ?? []) as Array<{ fieldsV1: unknown }>) {
          assert.deepEqual(entry.fieldsV1, toFieldsV1(fromFieldsV1(entry.fieldsV1)));
        }
        plain = stored(expected);
        carriedLive = stored(got.object);
        carried = got.carry?.();
        // A caller that changes what it handed in, once stored, must not change what was carried.
        if (mutate) for (const c of ((input.spec as JsonMap).template as { spec: { containers: Array<{ args?: string[] }> } }).spec.containers) c.args?.push('z');
      });
    }), { numRuns: 400 });
  });

  it('keeps the writer\'s stored tree, with a new time, when it changed only fields it owned', () => {
    const first = trackUpdateCarrying({ previous: undefined, next: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } }, manager: 'm', now: '2026-11-26T10:00:00Z', apiVersion: 'v1' });
    const live = stored(first.object);
    const second = trackUpdateCarrying({ previous: live, next: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: undefined }, data: { a: '9', b: '2' } }, manager: 'm', now: '2026-11-26T10:00:05Z', apiVersion: 'v1', carried: first.carry?.() });
    const entry = ((second.object.metadata as JsonMap).managedFields as Array<{ time: string; fieldsV1: unknown }>)[0];
    assert.equal(entry?.time, '2026-11-26T10:00:05Z');
    assert.equal(entry?.fieldsV1, ((live.metadata as JsonMap).managedFields as Array<{ fieldsV1: unknown }>)[0]?.fieldsV1, 'the stored tree object is reused, not rebuilt');
  });
});
