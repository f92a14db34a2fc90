import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileCustomResource, compileSchema } from '../../../../src/apiserver/crd/compile-custom-resource.ts';
import fc from 'fast-check';
import type { JSONSchemaProps } from '../../../../src/apiserver/crd/crd-types.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { widgetCrd } from './fixtures.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } },
    spec: {
      type: 'object',
      required: ['image'],
      properties: {
        image: { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
        replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
        mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
        port: { 'x-kubernetes-int-or-string': true },
        when: { type: 'string', format: 'date-time' },
        note: { type: 'string', nullable: true },
        tags: { type: 'array', maxItems: 2, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { level: { type: 'integer', default: 3 } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const cr = (spec: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec, ...extra });
const compiled = compileSchema(schema);

const validation: Array<{ name: string; obj: KubeObject; want: Array<[string, string, string]> }> = [
  { name: 'valid object', obj: cr({ image: 'nginx', replicas: 3, port: 'http', tags: ['a', 'b'], template: { apiVersion: 'v1', kind: 'Pod' } }), want: [] },
  { name: 'int-or-string accepts an integer', obj: cr({ image: 'nginx', port: 8080 }), want: [] },
  { name: 'nullable field accepts null', obj: cr({ image: 'nginx', note: null }), want: [] },
  { name: 'type error', obj: cr({ image: 'nginx', replicas: 'string' }), want: [['FieldValueTypeInvalid', 'spec.replicas', 'Invalid value: "string": spec.replicas in body must be of type integer: "string"']] },
  { name: 'required', obj: cr({}), want: [['FieldValueRequired', 'spec.image', 'Required value']] },
  { name: 'minimum and maximum', obj: cr({ image: 'nginx', replicas: 11 }), want: [['FieldValueInvalid', 'spec.replicas', 'Invalid value: 11: spec.replicas in body should be less than or equal to 10']] },
  { name: 'enum', obj: cr({ image: 'nginx', mode: 'medium' }), want: [['FieldValueNotSupported', 'spec.mode', 'Unsupported value: "medium": supported values: "fast", "slow"']] },
  { name: 'pattern', obj: cr({ image: 'Nginx' }), want: [['FieldValueInvalid', 'spec.image', 'Invalid value: "Nginx": spec.image in body should match \'^[a-z]+$\'']] },
  { name: 'minLength', obj: cr({ image: 'n' }), want: [['FieldValueInvalid', 'spec.image', 'Invalid value: "n": spec.image in body should be at least 2 chars long']] },
  { name: 'maxItems', obj: cr({ image: 'nginx', tags: ['a', 'b', 'c'] }), want: [['FieldValueTooMany', 'spec.tags', 'Too many: 3: must have at most 2 items']] },
  { name: 'format', obj: cr({ image: 'nginx', when: 'yesterday' }), want: [['FieldValueInvalid', 'spec.when', 'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"']] },
  { name: 'int-or-string rejects a boolean', obj: cr({ image: 'nginx', port: true }), want: [['FieldValueTypeInvalid', 'spec.port', 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']] },
  { name: 'nested array of objects path', obj: cr({ image: 'nginx', ports: [{ name: 'a' }, { name: 5 }] }), want: [['FieldValueTypeInvalid', 'spec.ports[1].name', 'Invalid value: "integer": spec.ports[1].name in body must be of type string: "integer"']] },
  { name: 'map values', obj: cr({ image: 'nginx', labels: { a: 1 } }), want: [['FieldValueTypeInvalid', 'spec.labels.a', 'Invalid value: "integer": spec.labels.a in body must be of type string: "integer"']] },
  { name: 'set duplicates', obj: cr({ image: 'nginx', tags: ['a', 'a'] }), want: [['FieldValueDuplicate', 'spec.tags[1]', 'Duplicate value: "a"']] },
  { name: 'map-list duplicate keys', obj: cr({ image: 'nginx', ports: [{ name: 'a' }, { name: 'a', protocol: 'UDP' }] }), want: [['FieldValueDuplicate', 'spec.ports[1]', 'Duplicate value: {"name":"a"}']] },
  { name: 'embedded resource needs apiVersion and kind', obj: cr({ image: 'nginx', template: { metadata: {} } }), want: [['FieldValueRequired', 'spec.template.apiVersion', 'Required value: must not be empty'], ['FieldValueRequired', 'spec.template.kind', 'Required value: must not be empty']] },
  { name: 'root metadata name restriction', obj: cr({ image: 'nginx' }, { metadata: { name: 'toolong', labels: { a: 'b' } } }), want: [['FieldValueTooLong', 'metadata.name', 'Too long: may not be longer than 5']] },
  { name: 'non-nullable null is a type error before defaulting', obj: cr({ image: null }), want: [['FieldValueTypeInvalid', 'spec.image', 'Invalid value: "null": spec.image in body must be of type string: "null"']] },
];

describe('compileSchema.validate', () => {
  for (const c of validation) {
    it(c.name, () => {
      assert.deepEqual(compiled.validate(c.obj).map((x) => [x.type, x.field, x.message]), c.want);
    });
  }
});

const defaulting: Array<{ name: string; spec: Record<string, unknown>; want: Record<string, unknown> }> = [
  { name: 'fills missing scalars', spec: { image: 'x' }, want: { image: 'x', replicas: 1, mode: 'fast' } },
  { name: 'keeps given values', spec: { image: 'x', replicas: 0, mode: 'slow' }, want: { image: 'x', replicas: 0, mode: 'slow' } },
  { name: 'non-nullable null with a default is defaulted', spec: { image: 'x', replicas: null }, want: { image: 'x', replicas: 1, mode: 'fast' } },
  { name: 'non-nullable null without a default is dropped', spec: { image: null }, want: { replicas: 1, mode: 'fast' } },
  { name: 'nullable null is kept', spec: { image: 'x', note: null }, want: { image: 'x', note: null, replicas: 1, mode: 'fast' } },
  { name: 'array items of objects', spec: { image: 'x', ports: [{ name: 'a' }, { name: 'b', protocol: 'UDP' }] }, want: { image: 'x', replicas: 1, mode: 'fast', ports: [{ name: 'a', protocol: 'TCP' }, { name: 'b', protocol: 'UDP' }] } },
  { name: 'inside a preserve-unknown object', spec: { image: 'x', extra: { free: true } }, want: { image: 'x', replicas: 1, mode: 'fast', extra: { free: true, level: 3 } } },
];

describe('compileSchema.default', () => {
  for (const c of defaulting) {
    it(c.name, () => {
      const input = cr(c.spec);
      const before = structuredClone(input);
      assert.deepEqual(compiled.default(input).spec, c.want);
      assert.deepEqual(input, before, 'input is not mutated');
    });
  }
  it('defaults nested objects created by a default', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', default: {}, properties: { a: { type: 'string', default: 'x' } } } } };
    assert.deepEqual(compileSchema(s).default({ metadata: {} }), { metadata: {}, spec: { a: 'x' } });
  });
});

const pruning: Array<{ name: string; obj: KubeObject; spec: unknown; unknown: string[] }> = [
  { name: 'keeps known fields', obj: cr({ image: 'x' }), spec: { image: 'x' }, unknown: [] },
  { name: 'drops unknown nested fields', obj: cr({ image: 'x', bogus: 1 }), spec: { image: 'x' }, unknown: ['spec.bogus'] },
  { name: 'drops unknown fields in array items', obj: cr({ ports: [{ name: 'a', junk: true }] }), spec: { ports: [{ name: 'a' }] }, unknown: ['spec.ports[0].junk'] },
  { name: 'keeps everything under preserve-unknown-fields', obj: cr({ extra: { any: { deep: [1] } } }), spec: { extra: { any: { deep: [1] } } }, unknown: [] },
  { name: 'keeps embedded resource fields when preserved', obj: cr({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } }), spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } }, unknown: [] },
  { name: 'map values are checked against additionalProperties', obj: cr({ labels: { a: 'b' } }), spec: { labels: { a: 'b' } }, unknown: [] },
];

describe('compileSchema.prune / unknownFields', () => {
  for (const c of pruning) {
    it(c.name, () => {
      assert.deepEqual(compiled.prune(c.obj).spec, c.spec);
      assert.deepEqual(compiled.unknownFields(c.obj), c.unknown);
    });
  }
  it('keeps apiVersion, kind and metadata at the root and drops unknown root fields', () => {
    const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { a: 'b' } }, spec: {}, junk: 1 };
    assert.deepEqual(compiled.prune(obj), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { a: 'b' } }, spec: {} });
    assert.deepEqual(compiled.unknownFields(obj), ['junk']);
  });
});

describe('compileCustomResource', () => {
  it('caches per uid and resourceVersion', () => {
    const crd = widgetCrd();
    assert.equal(compileCustomResource(crd, 'v1'), compileCustomResource(widgetCrd(), 'v1'));
    assert.notEqual(compileCustomResource(crd, 'v1'), compileCustomResource(widgetCrd((c) => { c.metadata.resourceVersion = '2'; }), 'v1'));
  });
  it('uses the version schema', () => {
    const causes = compileCustomResource(widgetCrd(), 'v1').validate(cr({ replicas: -1 }));
    assert.deepEqual(causes.map((c) => c.field), ['spec.replicas']);
  });
  it('rejects an unknown version', () => {
    assert.throws(() => compileCustomResource(widgetCrd(), 'v9'), /version "v9"/);
  });
});

describe('pruning and defaulting properties', () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  const specArb = fc.record({ image: fc.oneof(fc.string(), json), ports: fc.array(fc.dictionary(fc.constantFrom('name', 'protocol', 'junk'), json), { maxLength: 3 }), extra: json, bogus: json }, { requiredKeys: [] });
  it('prune is idempotent and leaves no unknown fields', () => {
    fc.assert(fc.property(specArb, (spec) => {
      const once = compiled.prune(cr(spec));
      assert.deepEqual(compiled.prune(once), once);
      assert.deepEqual(compiled.unknownFields(once), []);
    }));
  });
  it('default is idempotent', () => {
    fc.assert(fc.property(specArb, (spec) => {
      const once = compiled.default(cr(spec));
      assert.deepEqual(compiled.default(once), once);
    }));
  });
});
