// kubectl's last-applied annotation, byte for byte as kubectl apply writes it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { goJson, lastAppliedConfiguration, withLastApplied, LAST_APPLIED_ANNOTATION } from '../../../../src/core/patch/last-applied-configuration.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

describe('last-applied-configuration', () => {
  it('is Go\'s encoding of the manifest: keys sorted, compact, an empty annotations map, a final newline', () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'x' }, data: { z: '1', b: '<&>' } } as KubeObject;
    assert.equal(lastAppliedConfiguration(manifest),
      '{"apiVersion":"v1","data":{"b":"\\u003c\\u0026\\u003e","z":"1"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"a","namespace":"x"}}\n');
  });

  it('leaves its own annotation out and keeps the others', () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', annotations: { note: 'n', [LAST_APPLIED_ANNOTATION]: 'old' } } } as KubeObject;
    const annotated = withLastApplied(manifest);
    assert.equal(annotated.metadata.annotations?.note, 'n');
    assert.equal(annotated.metadata.annotations?.[LAST_APPLIED_ANNOTATION], '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{"note":"n"},"name":"a"}}\n');
    assert.equal(manifest.metadata.annotations?.[LAST_APPLIED_ANNOTATION], 'old', 'the manifest itself is not changed');
  });

  it('goJson parses back to the same value, and sorts every level (property)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = goJson(value);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
      assert.doesNotMatch(text, /[<>&\u2028\u2029]/);
    }));
    assert.equal(goJson({ b: { d: 1, c: [true, null] }, a: 'x' }), '{"a":"x","b":{"c":[true,null],"d":1}}');
  });
});
