import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from '../../../../src/core/patch/json-patch.ts';

const doc = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1, ports: [{ port: 80 }] } };

describe('applyJsonPatch', () => {
  const ok = [
    { name: 'replace scalar', ops: [{ op: 'replace', path: '/spec/replicas', value: 3 }], check: (d: any) => d.spec.replicas === 3 },
    { name: 'add label with escaped slash', ops: [{ op: 'add', path: '/metadata/labels/a~1b', value: 'x' }], check: (d: any) => d.metadata.labels['a/b'] === 'x' },
    { name: 'append to list with -', ops: [{ op: 'add', path: '/spec/ports/-', value: { port: 443 } }], check: (d: any) => d.spec.ports.length === 2 },
    { name: 'passing test then remove', ops: [{ op: 'test', path: '/spec/replicas', value: 1 }, { op: 'remove', path: '/metadata/labels' }], check: (d: any) => d.metadata.labels === undefined },
    { name: 'move', ops: [{ op: 'move', from: '/metadata/labels', path: '/spec/labels' }], check: (d: any) => d.spec.labels.app === 'web' && !d.metadata.labels },
    { name: 'copy', ops: [{ op: 'copy', from: '/spec/replicas', path: '/spec/min' }], check: (d: any) => d.spec.min === 1 },
  ];
  for (const c of ok) {
    it(c.name, () => {
      const before = structuredClone(doc);
      assert.ok(c.check(applyJsonPatch(doc, c.ops)));
      assert.deepEqual(doc, before, 'input not mutated');
    });
  }

  // kube: NewGenericServerResponse(422) → reason Invalid, fixed message, no causes.
  const invalid = [
    { name: 'failed test', ops: [{ op: 'test', path: '/spec/replicas', value: 2 }] },
    { name: 'remove missing path', ops: [{ op: 'remove', path: '/spec/nope' }] },
    { name: 'replace missing path', ops: [{ op: 'replace', path: '/spec/nope', value: 1 }] },
    { name: 'add under missing parent', ops: [{ op: 'add', path: '/x/y/z', value: 1 }] },
    { name: 'unknown op', ops: [{ op: 'frobnicate', path: '/spec' }] },
    { name: 'add without value', ops: [{ op: 'add', path: '/spec/x' }] },
    { name: 'move without from', ops: [{ op: 'move', path: '/spec/x' }] },
  ];
  for (const c of invalid) {
    it(`${c.name} → 422 Invalid`, () => {
      assert.throws(() => applyJsonPatch(doc, c.ops), (e: unknown) => e instanceof ApiError && e.code === 422
        && e.reason === 'Invalid' && e.message === 'the server rejected our request due to an error in our request');
    });
  }

  it('a body that is not a list → 400 BadRequest', () => {
    assert.throws(() => applyJsonPatch(doc, { op: 'add' }), (e: unknown) => e instanceof ApiError && e.code === 400);
    assert.throws(() => applyJsonPatch(doc, ['x']), (e: unknown) => e instanceof ApiError && e.code === 400);
  });

  it('too many operations → 413', () => {
    const ops = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 }));
    assert.throws(() => applyJsonPatch(doc, ops), (e: unknown) => e instanceof ApiError && e.code === 413
      && e.message === `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001`);
  });

  it('a failing op leaves no partial change behind', () => {
    const before = structuredClone(doc);
    assert.throws(() => applyJsonPatch(doc, [{ op: 'replace', path: '/spec/replicas', value: 9 }, { op: 'test', path: '/x', value: 1 }]));
    assert.deepEqual(doc, before);
  });
});
