import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeOpenApiV2Protobuf, isOpenApiV2ProtobufType } from '../../../../src/core/openapi-protobuf/index.ts';
import { openApiV2, type CrdSchema } from '../../../../src/apiserver/openapi/index.ts';
import { BUILTIN_RESOURCES } from '../../../../src/core/resources/builtin-resources.ts';
import { decodeMessage, decodeOpenApiV2 } from './openapi-v2-decoder.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ascii = (s: string): string => Buffer.from(s).toString('hex');
/** Length-delimited field, hand-built: tag byte(s) given as hex, then length, then body. */
const ld = (tagHex: string, bodyHex: string): string => tagHex + (bodyHex.length / 2).toString(16).padStart(2, '0') + bodyHex;

describe('encodeOpenApiV2Protobuf: bytes for small documents (field numbers from OpenAPIv2.proto)', () => {
  const cases: { name: string; doc: Record<string, unknown>; want: string }[] = [
    {
      name: 'swagger (1) and info (2: title 1, version 2)',
      doc: { swagger: '2.0', info: { title: 'K', version: 'v1' } },
      want: '0a03322e30' + '1207' + '0a014b' + '12027631',
    },
    {
      name: 'definitions (9) → NamedSchema → Schema.type (22) as TypeItem',
      doc: { definitions: { A: { type: 'string' } } },
      want: ld('4a', ld('0a', '0a0141' + ld('12', ld('b201', ld('0a', ascii('string')))))),
    },
    {
      name: 'Schema.$ref (1), additionalProperties false (21 → oneof boolean 2 written at its zero value)',
      doc: { definitions: { A: { $ref: '#/d/B', additionalProperties: false } } },
      want: ld('4a', ld('0a', '0a0141' + ld('12', ld('0a', ascii('#/d/B')) + 'aa01' + '02' + '1000'))),
    },
    {
      name: 'Schema numbers: minimum (9, double), maxLength (11, int64); zero values vanish',
      doc: { definitions: { A: { minimum: 1.5, maxLength: 63, maximum: 0, exclusiveMinimum: false, description: '' } } },
      want: ld('4a', ld('0a', '0a0141' + ld('12', '49000000000000f83f' + '583f'))),
    },
    {
      name: 'Schema vendor extension (31) → NamedAny → Any.yaml (2)',
      doc: { definitions: { A: { 'x-kubernetes-list-type': 'atomic' } } },
      want: ld('4a', ld('0a', '0a0141' + ld('12', ld('fa01', ld('0a', ascii('x-kubernetes-list-type')) + ld('12', ld('12', ascii('atomic\n'))))))),
    },
    {
      name: 'paths (8) → path (2) → PathItem.parameters (9) → Parameter → NonBodyParameter → query (3)',
      doc: { paths: { '/x': { parameters: [{ name: 'pretty', in: 'query', type: 'string', uniqueItems: true }] } } },
      want: ld('42', ld('12', ld('0a', ascii('/x')) + ld('12', ld('4a', ld('0a', ld('12', ld('1a',
        ld('12', ascii('query')) + ld('22', ascii('pretty')) + ld('32', ascii('string')) + 'a00101'))))))),
    },
    {
      name: 'operation post (4): operationId (5), body parameter (Parameter 1), responses (9) → "201" → Response → SchemaItem.schema',
      doc: { paths: { '/x': { post: { operationId: 'c', parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/R' } }], responses: { '201': { description: 'OK', schema: { $ref: '#/R' } } } } } } },
      want: ld('42', ld('12', ld('0a', ascii('/x')) + ld('12', ld('22',
        ld('2a', ascii('c')) +
        ld('42', ld('0a', ld('0a', ld('12', ascii('body')) + ld('1a', ascii('body')) + '2001' + ld('2a', ld('0a', ascii('#/R')))))) +
        ld('4a', ld('0a', ld('0a', ascii('201')) + ld('12', ld('0a', ld('0a', ascii('OK')) + ld('12', ld('0a', ld('0a', ascii('#/R')))))))))))),
    },
    {
      name: 'security (12) and securityDefinitions (13 → apiKey, oneof 2)',
      doc: { security: [{ BearerToken: [] }], securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } } },
      want: ld('62', ld('0a', ld('0a', ascii('BearerToken')) + '1200')) +
        ld('6a', ld('0a', ld('0a', ascii('BearerToken')) + ld('12', ld('12', ld('0a', ascii('apiKey')) + ld('12', ascii('authorization')) + ld('1a', ascii('header')))))),
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(hex(encodeOpenApiV2Protobuf(c.doc)), c.want));
});

describe('maps and extensions come out sorted by name, as kube serves them', () => {
  it('paths, definitions, properties, response codes and x- keys', () => {
    const doc = {
      paths: { '/b': { get: { responses: { default: { description: 'd' }, '401': { description: 'u' }, '200': { description: 'ok' } }, 'x-b': 1, 'x-a': 2 } }, '/a': {} },
      definitions: { Z: { properties: { y: {}, x: {} } }, A: {} },
    };
    const m = decodeMessage(encodeOpenApiV2Protobuf(doc), 'Document');
    assert.deepEqual(m.paths.path.map((p: any) => p.name), ['/a', '/b']);
    const get = m.paths.path[1].value.get;
    assert.deepEqual(get.responses.response_code.map((p: any) => p.name), ['200', '401', 'default']);
    assert.deepEqual(get.vendor_extension.map((p: any) => p.name), ['x-a', 'x-b']);
    assert.deepEqual(m.definitions.additional_properties.map((p: any) => p.name), ['A', 'Z']);
    assert.deepEqual(m.definitions.additional_properties[1].value.properties.additional_properties.map((p: any) => p.name), ['x', 'y']);
  });

  it('Any.yaml holds the YAML text of the value, map keys sorted, no google.protobuf.Any', () => {
    const doc = { paths: { '/x': { get: { 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'Pod' } } } } };
    const ext = decodeMessage(encodeOpenApiV2Protobuf(doc), 'Document').paths.path[0].value.get.vendor_extension;
    assert.deepEqual(ext.map((e: any) => [e.name, e.value]), [
      ['x-kubernetes-action', { yaml: 'get\n' }],
      ['x-kubernetes-group-version-kind', { yaml: 'group: ""\nkind: Pod\nversion: v1\n' }],
    ]);
  });
});

describe('round trip through a decoder written from the .proto', () => {
  const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

  it('the full built-in /openapi/v2 document decodes back to the same JSON', () => {
    const doc = openApiV2(BUILTIN_RESOURCES, []);
    assert.deepEqual(decodeOpenApiV2(encodeOpenApiV2Protobuf(doc)), json(doc));
  });

  it('with a CRD: its definition and paths survive too', () => {
    const foo: CrdSchema = {
      group: 'a.example.com', version: 'v1', kind: 'Foo', plural: 'foos', namespaced: true, listKind: 'FooList',
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1, maximum: 10, default: 3 }, mode: { type: 'string', enum: ['a', 'b'] } } } } },
    };
    const doc = openApiV2(BUILTIN_RESOURCES, [foo]) as any;
    const back = decodeOpenApiV2(encodeOpenApiV2Protobuf(doc)) as any;
    assert.ok(back.definitions['com.example.a.v1.Foo'], 'the CRD definition is there');
    assert.deepEqual(back, json(doc));
  });

  it('document-level fields a Kubernetes document does not use still round-trip', () => {
    const doc = {
      swagger: '2.0', host: 'h', basePath: '/b', schemes: ['https'], consumes: ['application/json'], produces: ['application/json'],
      info: { title: 't', version: 'v', description: 'd', termsOfService: 'tos', contact: { name: 'n', url: 'u', email: 'e' }, license: { name: 'Apache-2.0', url: 'u' }, 'x-i': true },
      parameters: { p: { name: 'p', in: 'header', type: 'string', required: true } },
      responses: { r: { description: 'r', headers: { 'X-H': { type: 'integer', format: 'int32', description: 'h' } }, examples: { 'application/json': { a: 1 } } } },
      securityDefinitions: {
        b: { type: 'basic', description: 'basic' },
        o: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'a', tokenUrl: 't', scopes: { read: 'r' } },
      },
      tags: [{ name: 'core', description: 'c', externalDocs: { url: 'x' } }],
      externalDocs: { description: 'more', url: 'https://x' },
      'x-top': [1, 'two', { three: 3 }],
    };
    assert.deepEqual(decodeOpenApiV2(encodeOpenApiV2Protobuf(doc)), doc);
  });

  it('schema shapes: type lists, items lists, allOf, additionalProperties schema, xml, default/example/enum values', () => {
    const s = {
      type: ['object', 'null'], items: [{ type: 'string' }, { type: 'integer' }], allOf: [{ $ref: '#/a' }, { required: ['x', 'y'] }],
      additionalProperties: { type: 'string' }, xml: { name: 'n', wrapped: true }, default: { a: [1, 2] }, example: 'e: x', enum: [1, 'a', null, true, { k: 'v' }],
      multipleOf: 2, exclusiveMaximum: true, maximum: -3.25, pattern: '^a$', maxItems: 5, minItems: 1, uniqueItems: true, maxProperties: 9, minProperties: 1,
      discriminator: 'kind', readOnly: true, title: 'T', format: 'f',
    };
    const back = decodeOpenApiV2(encodeOpenApiV2Protobuf({ definitions: { S: s } })) as any;
    assert.deepEqual(back.definitions.S, s);
  });

  it('property: random schema trees round-trip (non-zero scalars and non-empty lists, as proto3 drops both)', () => {
    const name = fc.string({ minLength: 1, maxLength: 8 });
    const leaf = fc.record(
      {
        type: fc.constantFrom('string', 'integer', 'boolean', 'object', 'array'),
        format: fc.constantFrom('int32', 'int64', 'date-time', 'byte'),
        description: fc.string({ minLength: 1 }),
        $ref: name.map((n) => `#/definitions/${n}`),
        maxLength: fc.integer({ min: 1, max: 2 ** 40 }),
        minimum: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => d !== 0), // JSON turns -0 into 0
        required: fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
        enum: fc.array(fc.jsonValue(), { minLength: 1, maxLength: 3 }),
        default: fc.jsonValue(),
        'x-kubernetes-list-type': fc.constantFrom('atomic', 'set', 'map'),
        'x-kubernetes-preserve-unknown-fields': fc.constant(true),
        'x-kubernetes-patch-merge-key': name,
      },
      { requiredKeys: [] },
    );
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ properties: fc.dictionary(name, tie('schema')), type: fc.constant('object') }, { requiredKeys: ['properties'] }),
        fc.record({ items: tie('schema'), type: fc.constant('array') }),
        fc.record({ additionalProperties: fc.oneof(fc.boolean(), tie('schema')) }),
      ),
    }));
    fc.assert(
      fc.property(fc.dictionary(name, schema, { maxKeys: 3 }), (definitions) => {
        const doc = json({ definitions }) as Record<string, unknown>;
        assert.deepEqual(decodeOpenApiV2(encodeOpenApiV2Protobuf(doc)), doc);
      }),
      { numRuns: 200 },
    );
  });
});

describe('what protobuf cannot hold (documented losses)', () => {
  it('zero scalars, empty lists and keys with no field (nullable, anyOf) are dropped; extensions are kept', () => {
    const back = decodeOpenApiV2(encodeOpenApiV2Protobuf({ definitions: { A: { minimum: 0, required: [], nullable: true, anyOf: [{ type: 'string' }], 'x-kubernetes-int-or-string': true } } })) as any;
    assert.deepEqual(back.definitions.A, { 'x-kubernetes-int-or-string': true });
  });
});

describe('encoding purity', () => {
  it('the full document encoded twice gives identical bytes', () => {
    const doc = openApiV2(BUILTIN_RESOURCES, []);
    const a = encodeOpenApiV2Protobuf(doc);
    assert.deepEqual(encodeOpenApiV2Protobuf(doc), a);
  });
});

describe('isOpenApiV2ProtobufType', () => {
  const cases: [string, boolean][] = [
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', true],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', true],
    ['application/json', false],
    ['*/*', false],
    ['application/com.github.proto-openapi.spec.v3@v1.0+protobuf', false],
  ];
  for (const [type, want] of cases) it(`${type} → ${want}`, () => assert.equal(isOpenApiV2ProtobufType(type), want));
});
