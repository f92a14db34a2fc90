import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions } from '../../../../src/apiserver/openapi/builtin-definitions.ts';
import { definitionNameOfKind } from '../../../../src/apiserver/openapi/definition-names.ts';
import { openApiV2 } from '../../../../src/apiserver/openapi/openapi-v2.ts';
import { BUILTIN_RESOURCES } from '../../../../src/core/resources/builtin-resources.ts';

type S = Record<string, any>;

function danglingRefs(defs: Record<string, unknown>): string[] {
  const bad = new Set<string>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      for (const [k, v] of Object.entries(n)) {
        if (k === '$ref' && typeof v === 'string') {
          if (!defs[v.replace('#/definitions/', '')]) bad.add(v);
        } else walk(v);
      }
    }
  };
  walk(defs);
  return [...bad];
}

describe('built-in definitions from client-node', () => {
  // Build time is a benchmark figure, not a unit-test assertion.
  it('is built once and cached', () => {
    const a = builtinDefinitions();
    assert.equal(builtinDefinitions(), a);
  });

  it('Deployment round-trips: required fields, descriptions, types, refs', () => {
    const d = builtinDefinitions();
    const spec = d['io.k8s.api.apps.v1.DeploymentSpec'] as S;
    assert.deepEqual(spec.required, ['selector', 'template']);
    assert.equal(spec.properties.replicas.type, 'integer');
    assert.equal(spec.properties.replicas.format, 'int32');
    assert.match(spec.properties.replicas.description, /^Number of desired pods\./);
    assert.equal(spec.properties.selector.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector');
    assert.equal(spec.properties.template.$ref, '#/definitions/io.k8s.api.core.v1.PodTemplateSpec');
    const dep = d['io.k8s.api.apps.v1.Deployment'] as S;
    assert.equal(dep.properties.metadata.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.match(dep.description, /Deployment enables declarative updates/);
  });

  const specials: Array<{ name: string; field: string; def: string; expect: S }> = [
    { name: 'IntOrString', def: 'io.k8s.api.core.v1.HTTPGetAction', field: 'port', expect: { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' } },
    { name: 'Time', def: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', field: 'creationTimestamp', expect: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time' } },
    { name: 'map of strings', def: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', field: 'labels', expect: { type: 'object', additionalProperties: { type: 'string' } } },
    { name: 'Quantity map', def: 'io.k8s.api.core.v1.ResourceRequirements', field: 'limits', expect: { type: 'object', additionalProperties: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' } } },
    { name: 'byte map', def: 'io.k8s.api.core.v1.Secret', field: 'data', expect: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } } },
    { name: 'int64', def: 'io.k8s.api.core.v1.PodSpec', field: 'activeDeadlineSeconds', expect: { type: 'integer', format: 'int64' } },
  ];
  for (const c of specials) {
    it(`maps ${c.name}`, () => {
      const prop = { ...((builtinDefinitions()[c.def] as S).properties[c.field] as S) };
      delete prop.description;
      assert.deepEqual(prop, c.expect);
    });
  }

  it('adds patch strategies and list types from core/patch', () => {
    const containers = (builtinDefinitions()['io.k8s.api.core.v1.PodSpec'] as S).properties.containers;
    assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(containers['x-kubernetes-list-type'], 'map');
    assert.deepEqual(containers['x-kubernetes-list-map-keys'], ['name']);
    const ports = (builtinDefinitions()['io.k8s.api.core.v1.Container'] as S).properties.ports;
    assert.deepEqual(ports['x-kubernetes-list-map-keys'], ['containerPort', 'protocol']);
  });

  it('names types by Go package, including the ones client-node disambiguates', () => {
    const d = builtinDefinitions();
    for (const name of ['io.k8s.api.core.v1.Event', 'io.k8s.api.events.v1.Event', 'io.k8s.api.rbac.v1.Subject', 'io.k8s.api.autoscaling.v1.Scale',
      'io.k8s.api.core.v1.TopologySelectorTerm', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']) {
      assert.ok(d[name], name);
    }
  });

  it('has no dangling $ref', () => {
    assert.deepEqual(danglingRefs(builtinDefinitions()), []);
  });

  it('every built-in resource kind has a definition tagged with its GVK in /openapi/v2', () => {
    const doc = openApiV2(BUILTIN_RESOURCES, []) as S;
    assert.deepEqual(danglingRefs(doc.definitions), []);
    for (const r of BUILTIN_RESOURCES) {
      const def = doc.definitions[definitionNameOfKind(r.group, r.version, r.kind)];
      assert.ok(def, `${r.group}/${r.version} ${r.kind}`);
      assert.ok(def['x-kubernetes-group-version-kind'].some((g: S) => g.group === r.group && g.version === r.version && g.kind === r.kind), r.kind);
    }
  });
});
