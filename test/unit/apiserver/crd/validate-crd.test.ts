import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateCrd } from '../../../../src/apiserver/crd/validate-crd.ts';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../../../src/apiserver/crd/crd-types.ts';
import { widgetCrd } from './fixtures.ts';

const schemaPath = 'spec.versions[0].schema.openAPIV3Schema';
function withSchema(schema: JSONSchemaProps): CustomResourceDefinition {
  return widgetCrd((c) => {
    c.spec.versions![0]!.schema = { openAPIV3Schema: schema };
    c.spec.versions![0]!.subresources = undefined;
  });
}

const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const cases: Array<{ name: string; crd: CustomResourceDefinition; want: Array<[string, string]> }> = [
  { name: 'valid CRD', crd: widgetCrd(), want: [] },
  {
    name: 'name must be plural.group',
    crd: widgetCrd((c) => { c.metadata.name = 'gadgets.example.com'; }),
    want: [['metadata.name', 'Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group']],
  },
  {
    name: 'group without a dot',
    crd: widgetCrd((c) => { c.spec.group = 'example'; c.metadata.name = 'widgets.example'; }),
    want: [['spec.group', 'Invalid value: "example": should be a domain with at least one dot']],
  },
  {
    name: 'missing group',
    crd: widgetCrd((c) => { delete c.spec.group; c.metadata.name = 'widgets.'; }),
    want: [
      ['metadata.name', "Invalid value: \"widgets.\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
      ['spec.group', 'Required value'],
    ],
  },
  {
    name: 'bad scope',
    crd: widgetCrd((c) => { c.spec.scope = 'Global'; }),
    want: [['spec.scope', 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"']],
  },
  {
    name: 'bad plural and mixed-case kind is fine, bad kind is not',
    crd: widgetCrd((c) => { c.spec.names!.plural = 'Widgets'; c.spec.names!.kind = 'Wid_get'; c.metadata.name = 'Widgets.example.com'; }),
    want: [
      ['metadata.name', "Invalid value: \"Widgets.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
      ['spec.names.plural', `Invalid value: "Widgets": ${DNS1035}`],
      ['spec.names.kind', `Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${DNS1035}`],
      ['spec.names.listKind', `Invalid value: "Wid_getList": may have mixed case, but should otherwise match: ${DNS1035}`],
    ],
  },
  {
    name: 'kind equals listKind',
    crd: widgetCrd((c) => { c.spec.names!.listKind = 'Widget'; }),
    want: [['spec.names.listKind', 'Invalid value: "Widget": kind and listKind may not be the same']],
  },
  {
    name: 'missing kind',
    crd: widgetCrd((c) => { delete c.spec.names!.kind; }),
    want: [['spec.names.kind', 'Required value'], ['spec.names.listKind', 'Required value']],
  },
  {
    name: 'no storage version',
    crd: widgetCrd((c) => { c.spec.versions![0]!.storage = false; }),
    want: [['spec.versions', 'must have exactly one version marked as storage version']],
  },
  {
    name: 'two storage versions with the same name',
    crd: widgetCrd((c) => { c.spec.versions!.push(structuredClone(c.spec.versions![0]!)); }),
    want: [['spec.versions', 'must contain unique version names'], ['spec.versions', 'must have exactly one version marked as storage version']],
  },
  {
    name: 'schema is required',
    crd: widgetCrd((c) => { delete c.spec.versions![0]!.schema; }),
    want: [[`${schemaPath}`, 'Required value: schemas are required']],
  },
  {
    name: 'missing type on a nested field',
    crd: withSchema({ type: 'object', properties: { spec: { type: 'object', properties: { x: { description: 'no type' } } } } }),
    want: [[`${schemaPath}.properties[spec].properties[x].type`, 'Required value: must not be empty for specified object fields']],
  },
  {
    name: 'missing type at the root and on array items',
    crd: withSchema({ properties: { list: { type: 'array', items: {} } } }),
    want: [
      [`${schemaPath}.properties[list].items.type`, 'Required value: must not be empty for specified array items'],
      [`${schemaPath}.type`, 'Required value: must not be empty at the root'],
    ],
  },
  {
    name: 'int-or-string and preserve-unknown need no type',
    crd: withSchema({ type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true }, any: { 'x-kubernetes-preserve-unknown-fields': true } } }),
    want: [],
  },
  {
    name: 'array without items',
    crd: withSchema({ type: 'object', properties: { list: { type: 'array' } } }),
    want: [[`${schemaPath}.properties[list].items`, 'Required value: must be specified']],
  },
  {
    name: 'additionalProperties with properties',
    crd: withSchema({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } } } }),
    want: [[`${schemaPath}.properties[spec].additionalProperties`, 'Forbidden: additionalProperties and properties are mutual exclusive']],
  },
  {
    name: 'type inside anyOf',
    crd: withSchema({ type: 'object', properties: { v: { type: 'string', anyOf: [{ type: 'string' }, { pattern: '^a' }] } } }),
    want: [[`${schemaPath}.properties[v].anyOf[0].type`, 'Forbidden: must be empty to be structural']],
  },
  {
    name: 'field named only inside anyOf',
    crd: withSchema({ type: 'object', properties: { spec: { type: 'object' } }, anyOf: [{ properties: { spec: { properties: { a: { pattern: 'x' } } } } }, { required: ['spec'] }] }),
    want: [[`${schemaPath}.properties[spec].properties[a]`, `Required value: because it is defined in ${schemaPath}.anyOf[0].properties[spec].properties[a]`]],
  },
  {
    name: 'metadata restricted beyond name',
    crd: withSchema({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }),
    want: [[`${schemaPath}.properties[metadata]`, 'Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified']],
  },
  {
    name: 'uniqueItems and $ref',
    crd: withSchema({ type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, uniqueItems: true }, r: { type: 'object', $ref: '#/x' } } }),
    want: [
      [`${schemaPath}.properties[l].uniqueItems`, 'Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic'],
      [`${schemaPath}.properties[r].$ref`, 'Forbidden: $ref is not supported'],
    ],
  },
  {
    name: 'default that does not validate',
    crd: withSchema({ type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', default: 'two' } } } } }),
    want: [[`${schemaPath}.properties[spec].properties[replicas].default`, 'Invalid value: "string": in body must be of type integer: "string"']],
  },
  {
    name: 'list-type map without keys',
    crd: withSchema({ type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { name: { type: 'string' } } } } } }),
    want: [[`${schemaPath}.properties[l].x-kubernetes-list-map-keys`, 'Required value: must not be empty if x-kubernetes-list-type is map']],
  },
  {
    name: 'scale paths outside spec/status',
    crd: widgetCrd((c) => { c.spec.versions![0]!.subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'status.replicas' } }; }),
    want: [
      ['spec.versions[0].subresources.scale.specReplicasPath', 'Invalid value: ".status.replicas": should be a json path under .spec'],
      ['spec.versions[0].subresources.scale.statusReplicasPath', 'Invalid value: "status.replicas": must be a simple json path starting with .'],
    ],
  },
  {
    name: 'printer columns',
    crd: widgetCrd((c) => { c.spec.versions![0]!.additionalPrinterColumns = [{ name: 'R', type: 'int', jsonPath: 'spec.replicas' }, { name: 'ok', type: 'integer', jsonPath: '.spec.replicas' }]; }),
    want: [
      ['spec.versions[0].additionalPrinterColumns[0].type', 'Invalid value: "int": must be one of boolean,date,integer,number,string'],
      ['spec.versions[0].additionalPrinterColumns[0].JSONPath', 'Invalid value: "spec.replicas": must be a simple json path starting with .'],
    ],
  },
];

describe('validateCrd', () => {
  for (const c of cases) {
    it(c.name, () => {
      const got = validateCrd(c.crd).map((x) => [x.field, x.message]);
      assert.equal(got.length, c.want.length, JSON.stringify(got, null, 1));
      c.want.forEach(([field, msg], i) => {
        assert.equal(got[i]![0], field);
        assert.ok(String(got[i]![1]).includes(msg), `${String(got[i]![1])} should include ${msg}`);
      });
    });
  }

  it('forbids changing group and plural on update, and kind once established', () => {
    const old = widgetCrd((c) => { c.status = { conditions: [{ type: 'Established', status: 'True' }] }; });
    const next = widgetCrd((c) => { c.spec.names!.kind = 'Gadget'; c.spec.names!.listKind = 'GadgetList'; });
    assert.deepEqual(validateCrd(next, old).map((x) => [x.field, x.message]), [['spec.names.kind', 'Invalid value: "Gadget": field is immutable']]);
  });
});
