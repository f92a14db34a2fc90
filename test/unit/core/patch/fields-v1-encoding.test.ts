// The field-set walkers build each path's JSON text directly instead of
// stringifying an array per member; these properties pin them to the plain
// definitions (JSON.stringify of the path array, a scan of the set per path),
// including keys that need escaping.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fieldSetOf, fromFieldsV1, parentsOf, toFieldsV1, type FieldPath, type FieldSet } from '../../../../src/core/patch/fields-v1.ts';
import { hasChildIn } from '../../../../src/core/patch/managed-fields.ts';

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';

/** The plain definition: every member of the tree, as JSON.stringify of its path. */
function referenceFromFieldsV1(tree: unknown, prefix: FieldPath = [], out: FieldSet = new Set()): FieldSet {
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) return out;
  for (const [el, child] of Object.entries(tree)) {
    if (el === '.') continue;
    const path = [...prefix, el];
    const isMap = typeof child === 'object' && child !== null && !Array.isArray(child);
    if (!isMap || Object.keys(child).length === 0 || '.' in child) out.add(JSON.stringify(path));
    referenceFromFieldsV1(child, path, out);
  }
  return out;
}

const key = fc.oneof(fc.constantFrom('name', 'image', 'a"b', 'c,d', 'e\\f', '[x]', 'ünï'), fc.string({ maxLength: 6 }));
const leaf = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean());
const { value: jsonTree } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
}));
const object = fc.dictionary(fc.constantFrom('spec', 'data', 'metadata', 'x"y'), jsonTree, { maxKeys: 3 });
const deploymentish = fc.record({
  spec: fc.record({
    replicas: fc.integer(),
    template: fc.record({ spec: fc.record({
      containers: fc.array(fc.record({ name: key, image: fc.string({ maxLength: 3 }), ports: fc.array(fc.record({ containerPort: fc.integer({ min: 1, max: 5 }) }), { maxLength: 2 }) }), { maxLength: 3 }),
    }) }),
  }),
  metadata: fc.record({ name: fc.string(), finalizers: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), labels: fc.dictionary(key, fc.string({ maxLength: 3 })) }),
});

describe('field set encoding', () => {
  it('every member is JSON.stringify of its path, and the tree round-trips (untyped)', () => {
    fc.assert(fc.property(object, (obj) => {
      const set = fieldSetOf(obj, undefined);
      for (const p of set) assert.equal(JSON.stringify(JSON.parse(p)), p);
      const tree = toFieldsV1(set);
      assert.deepEqual(fromFieldsV1(tree), referenceFromFieldsV1(tree));
      assert.deepEqual(fromFieldsV1(tree), set);
    }), { numRuns: 300 });
  });
  it('the same for a typed kind with keyed lists and sets', () => {
    fc.assert(fc.property(deploymentish, (obj) => {
      const set = fieldSetOf(obj, DEPLOYMENT);
      for (const p of set) assert.equal(JSON.stringify(JSON.parse(p)), p);
      const tree = toFieldsV1(set);
      assert.deepEqual(fromFieldsV1(tree), referenceFromFieldsV1(tree));
    }), { numRuns: 300 });
  });
  it('fromFieldsV1 under a prefix equals the plain definition', () => {
    fc.assert(fc.property(object, fc.array(key, { maxLength: 2 }), (obj, prefix) => {
      const tree = toFieldsV1(fieldSetOf(obj, undefined));
      assert.deepEqual(fromFieldsV1(tree, prefix), referenceFromFieldsV1(tree, prefix));
    }), { numRuns: 200 });
  });
  it('parentsOf(set).has(p) is hasChildIn(set, p) for every member and prefix', () => {
    fc.assert(fc.property(deploymentish, (obj) => {
      const set = fieldSetOf(obj, DEPLOYMENT);
      const parents = parentsOf(set);
      const candidates = new Set(set);
      for (const p of set) {
        const path = JSON.parse(p) as FieldPath;
        for (let i = 1; i < path.length; i++) candidates.add(JSON.stringify(path.slice(0, i)));
      }
      for (const p of candidates) assert.equal(parents.has(p), hasChildIn(set, p), p);
    }), { numRuns: 300 });
  });
  it('marks a member that has children with "." even when the child comes first in the set', () => {
    const set: FieldSet = new Set([JSON.stringify(['f:a', 'f:b']), JSON.stringify(['f:a'])]);
    assert.deepEqual(toFieldsV1(set), { 'f:a': { 'f:b': {}, '.': {} } });
  });
});
