import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findUnknownFields, strictDecodingError, unknownFieldWarnings } from '../../../../src/apiserver/openapi/unknown-fields.ts';

const deployment = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { any: 'thing' } },
  spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec },
  ...extra,
});

const cases: Array<{ name: string; gvk: [string, string, string]; obj: unknown; want: string[] }> = [
  { name: 'valid deployment', gvk: ['apps', 'v1', 'Deployment'], obj: deployment({ replicas: 2 }), want: [] },
  { name: 'unknown spec field', gvk: ['apps', 'v1', 'Deployment'], obj: deployment({ foo: 1 }), want: ['spec.foo'] },
  { name: 'unknown top-level field', gvk: ['apps', 'v1', 'Deployment'], obj: deployment({}, { bogus: true }), want: ['bogus'] },
  { name: 'unknown metadata field', gvk: ['', 'v1', 'ConfigMap'], obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', nope: 1 }, data: { k: 'v' } }, want: ['metadata.nope'] },
  {
    name: 'inside a list item', gvk: ['apps', 'v1', 'Deployment'],
    obj: deployment({ template: { spec: { containers: [{ name: 'a', image: 'i' }, { name: 'b', image: 'i', bogus: 1, ports: [{ containerPort: 80, prot: 'TCP' }] }] } } }),
    want: ['spec.template.spec.containers[1].bogus', 'spec.template.spec.containers[1].ports[0].prot'],
  },
  { name: 'map values are free keys', gvk: ['', 'v1', 'ConfigMap'], obj: { metadata: { annotations: { 'a/b': 'c' } }, data: { anything: 'x' } }, want: [] },
  { name: 'quantity map values', gvk: ['', 'v1', 'Pod'], obj: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1', 'nvidia.com/gpu': 1 } } }] } }, want: [] },
  { name: 'int-or-string takes a number', gvk: ['', 'v1', 'Service'], obj: { spec: { ports: [{ port: 80, targetPort: 8080 }] } }, want: [] },
  { name: 'several unknown fields in order', gvk: ['', 'v1', 'Service'], obj: { spec: { a: 1, b: 2 } }, want: ['spec.a', 'spec.b'] },
  { name: 'free-form RawExtension content', gvk: ['apps', 'v1', 'ControllerRevision'], obj: { data: { whatever: { deep: 1 } }, revision: 1 }, want: [] },
  { name: 'unknown kind has no schema', gvk: ['example.com', 'v1', 'Foo'], obj: { spec: { x: 1 } }, want: [] },
  { name: 'scalars where objects are expected are not its concern', gvk: ['apps', 'v1', 'Deployment'], obj: { spec: 'oops' }, want: [] },
];

describe('findUnknownFields', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(findUnknownFields(...c.gvk, c.obj), c.want);
    });
  }
});

describe('messages', () => {
  it('Strict: one 400 listing every field, in kube wording', () => {
    const err = strictDecodingError('Deployment', 'v1', ['spec.a', 'spec.b']);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.equal(err.message, 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.a", unknown field "spec.b"');
  });
  it('Warn: one warning per field', () => {
    assert.deepEqual(unknownFieldWarnings(['spec.a', 'x']), ['unknown field "spec.a"', 'unknown field "x"']);
  });
});
