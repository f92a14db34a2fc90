// A ControllerRevision's data is decoded by kube's StatefulSet controller with
// Go's encoding/json (ApplyRevision), which matches a key to a field name
// case-insensitively, folding `ſ` (U+017F) to s and the Kelvin sign (U+212A)
// to k. Property: any other spelling of a field that steers a pod (the path
// to the template, tolerations, node selector, node name, priority, affinity),
// at any depth of the data, is refused on the host and on a member copy; the
// exact spelling of a harmless revision is not. The fold here is written
// apart from the code: Go's rule, character by character.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hostReservedReferences, memberReservedReferences } from '../../../../src/core/tenancy/reserved-references.ts';

type Obj = Record<string, unknown>;
const FIELDS = ['spec', 'template', 'tolerations', 'nodeSelector', 'nodeName', 'priorityClassName', 'affinity', 'podAffinity', 'namespaces'];

/** The spellings Go's encoding/json reads as `name`, each character: either case, and ſ / K where Go folds them. */
const spellingOf = (name: string): fc.Arbitrary<string> => fc.tuple(...[...name].map((c) => {
  const options = [c.toLowerCase(), c.toUpperCase()];
  if (c.toLowerCase() === 's') options.push('\u017f');
  if (c.toLowerCase() === 'k') options.push('\u212a');
  return fc.constantFrom(...options);
})).map((cs) => cs.join(''));

const revision = (data: unknown): Obj => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r', namespace: 'n' }, revision: 1, data });
const wrapAt = (path: string[], leaf: Obj): Obj => path.reduceRight<Obj>((inner, key) => ({ [key]: inner }), leaf);
const plainTemplate = { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };

describe('property: a revision spells every steering field exactly', () => {
  it('any other spelling, at any depth, is refused on the host and on a member', () => {
    const arb = fc.constantFrom(...FIELDS).chain((field) => fc.tuple(fc.constant(field), spellingOf(field).filter((s) => s !== field),
      fc.array(fc.constantFrom('spec', 'template', 'x', 'items'), { maxLength: 4 })));
    fc.assert(fc.property(arb, ([, spelt, depth]) => {
      const body = revision(wrapAt(depth, { [spelt]: { anything: [{ operator: 'Exists' }] } }));
      for (const refs of [hostReservedReferences('apps/ControllerRevision', body), memberReservedReferences(body)]) {
        assert.ok(refs.some((r) => r.value === spelt && /spelling of a pod template field/.test(r.why)), `${spelt} under ${depth.join('.')}: ${JSON.stringify(refs)}`);
      }
    }), { numRuns: 800 });
  });

  it('the exact spelling of a plain template, and data holding no template, pass', () => {
    for (const data of [plainTemplate, { note: 'bookkeeping' }, { spec: { replicas: 3 } }]) {
      assert.deepEqual(hostReservedReferences('apps/ControllerRevision', revision(data)), []);
      assert.deepEqual(memberReservedReferences(revision(data)), []);
    }
  });

  it('other kinds are not judged by the spelling rule', () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { Spec: 'x', Tolerations: 'y' } };
    assert.deepEqual(hostReservedReferences('/ConfigMap', body), []);
    assert.deepEqual(memberReservedReferences(body), []);
  });
});
