import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openApiV2, openApiV3GroupVersion, openApiV3Index, type CrdSchema } from '../../../../src/apiserver/openapi/index.ts';
import { toSwaggerV2Schema } from '../../../../src/apiserver/openapi/crd-definitions.ts';
import { toV3Schema } from '../../../../src/apiserver/openapi/openapi-v3.ts';
import { BUILTIN_RESOURCES } from '../../../../src/core/resources/builtin-resources.ts';

type S = Record<string, any>;
const FOO: CrdSchema = {
  group: 'a.example.com', version: 'v1', kind: 'Foo', plural: 'foos', namespaced: true,
  schema: { type: 'object', properties: { spec: { type: 'object', nullable: true, properties: { not: { type: 'string' }, port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } } } },
};

describe('/openapi/v3 index', () => {
  const index = openApiV3Index(BUILTIN_RESOURCES, [FOO]) as S;
  it('lists every served group-version with a hashed serverRelativeURL', () => {
    for (const key of ['api/v1', 'apis/apps/v1', 'apis/a.example.com/v1']) {
      assert.match(index.paths[key].serverRelativeURL, new RegExp(`^/openapi/v3/${key}\\?hash=[0-9A-F]{128}$`));
    }
  });
  it('hash is stable for the same inputs and changes with them', () => {
    const again = openApiV3Index([...BUILTIN_RESOURCES], [{ ...FOO }]) as S;
    assert.equal(again.paths['apis/apps/v1'].serverRelativeURL, index.paths['apis/apps/v1'].serverRelativeURL);
    const changed = openApiV3Index(BUILTIN_RESOURCES, [{ ...FOO, schema: { type: 'object' } }]) as S;
    assert.notEqual(changed.paths['apis/a.example.com/v1'].serverRelativeURL, index.paths['apis/a.example.com/v1'].serverRelativeURL);
    assert.equal(changed.paths['apis/apps/v1'].serverRelativeURL, index.paths['apis/apps/v1'].serverRelativeURL);
  });
});

describe('/openapi/v3/<gv>', () => {
  it('apps/v1 has its kinds with GVK, closed $refs, and a PATCH that declares fieldValidation', () => {
    const gv = openApiV3GroupVersion('/openapi/v3/apis/apps/v1', BUILTIN_RESOURCES, [])!;
    assert.ok(gv);
    assert.equal(gv.json, JSON.stringify(gv.doc));
    const doc = gv.doc as S;
    assert.equal(doc.openapi, '3.0.0');
    const dep = doc.components.schemas['io.k8s.api.apps.v1.Deployment'];
    assert.deepEqual(dep['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of refs) {
      const name = r.slice('"$ref":"#/components/schemas/'.length, -1);
      assert.ok(doc.components.schemas[name], r);
    }
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' });
    assert.ok(patch.parameters.some((p: S) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.ok(patch.requestBody.content['application/apply-patch+yaml']);
  });
  it('core namespaces PATCH exists (kubectl checks it on behalf of CRDs)', () => {
    const doc = openApiV3GroupVersion('api/v1', BUILTIN_RESOURCES, [])!.doc as S;
    assert.ok(doc.paths['/api/v1/namespaces/{name}'].patch.parameters.some((p: S) => p.name === 'fieldValidation'));
  });
  it('a CRD version carries apiVersion, kind, ObjectMeta and its own schema', () => {
    const doc = openApiV3GroupVersion('apis/a.example.com/v1', BUILTIN_RESOURCES, [FOO])!.doc as S;
    const foo = doc.components.schemas['com.example.a.v1.Foo'];
    assert.deepEqual(foo['x-kubernetes-group-version-kind'], [{ group: 'a.example.com', kind: 'Foo', version: 'v1' }]);
    assert.equal(foo.properties.metadata.allOf[0].$ref, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.equal(foo.properties.spec.nullable, true);
    assert.ok(doc.components.schemas['com.example.a.v1.FooList']);
    assert.ok(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
  });
  it('unknown group-version is undefined', () => {
    assert.equal(openApiV3GroupVersion('apis/nope/v1', BUILTIN_RESOURCES, []), undefined);
  });
});

describe('/openapi/v2', () => {
  it('is swagger 2.0 with CRDs converted to what v2 can say', () => {
    const doc = openApiV2(BUILTIN_RESOURCES, [FOO]) as S;
    assert.equal(doc.swagger, '2.0');
    const spec = doc.definitions['com.example.a.v1.Foo'].properties.spec;
    assert.equal(spec.nullable, undefined);
    assert.deepEqual(spec.properties.not, { type: 'string' }, 'a field named "not" is kept');
    assert.deepEqual(spec.properties.port, { 'x-kubernetes-int-or-string': true });
  });
  it('is cached while the inputs are equal', () => {
    assert.equal(openApiV2(BUILTIN_RESOURCES, []), openApiV2([...BUILTIN_RESOURCES], []));
  });
});

describe('schema conversions', () => {
  const v3: Array<{ name: string; in: unknown; out: unknown }> = [
    { name: 'bare ref', in: { $ref: '#/definitions/X' }, out: { $ref: '#/components/schemas/X' } },
    { name: 'ref with siblings', in: { $ref: '#/definitions/X', description: 'd' }, out: { allOf: [{ $ref: '#/components/schemas/X' }], description: 'd' } },
    { name: 'a property called $ref', in: { properties: { $ref: { type: 'string' } } }, out: { properties: { $ref: { type: 'string' } } } },
    { name: 'enum left alone', in: { enum: [{ $ref: 'x' }] }, out: { enum: [{ $ref: 'x' }] } },
  ];
  for (const c of v3) it(`toV3Schema: ${c.name}`, () => assert.deepEqual(toV3Schema(c.in), c.out));
  it('toSwaggerV2Schema drops oneOf/anyOf/not/nullable keywords only', () => {
    assert.deepEqual(toSwaggerV2Schema({ type: 'object', nullable: true, oneOf: [], properties: { oneOf: { type: 'string' } } }), { type: 'object', properties: { oneOf: { type: 'string' } } });
  });
  // Both shapes as a real 1.20 publishes them (issue 14: the conformance spec "CRD without validation schema").
  it('a kind whose root preserves unknown fields is published in v2 as {type: object} and its GVK only', () => {
    const any: CrdSchema = { group: 'b.example.com', version: 'v1', kind: 'Any', plural: 'anys', namespaced: true, schema: { type: 'object', description: 'root', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'string' } } } };
    const doc = openApiV2(BUILTIN_RESOURCES, [any]) as S;
    assert.deepEqual(doc.definitions['com.example.b.v1.Any'], { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'b.example.com', kind: 'Any', version: 'v1' }] });
    // v3 keeps the schema as written, with apiVersion, kind and metadata.
    const v3 = openApiV3GroupVersion('/openapi/v3/apis/b.example.com/v1', BUILTIN_RESOURCES, [any])!.doc as S;
    assert.equal(v3.components.schemas['com.example.b.v1.Any']['x-kubernetes-preserve-unknown-fields'], true);
    assert.ok(v3.components.schemas['com.example.b.v1.Any'].properties.metadata);
  });
  it('a nested field that preserves unknown fields loses its type, properties and items in v2, keeps its description', () => {
    assert.deepEqual(toSwaggerV2Schema({ type: 'object', properties: {
      spec: { type: 'object', description: 'd', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
      list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
    } }), { type: 'object', properties: { spec: { description: 'd', 'x-kubernetes-preserve-unknown-fields': true }, list: { 'x-kubernetes-preserve-unknown-fields': true } } });
  });
});
