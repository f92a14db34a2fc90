// translationCopy (ADR 0026) replaced two structuredClone()s per write: the
// tenant's view kept while the body is translated upstream, and the read-back
// check. It shares what translation never writes. Properties: translating the
// copy (either direction) never changes the original, the tenant copy is
// deep-equal to the original, and the read-back answer is the deep clone's.
// Plus an operation count: translating an object touches its label map a
// fixed number of times whatever its size, and copies it at most once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { translationCopy } from '../../../../src/core/tenancy/translation-copy.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { TenantContext } from '../../../../src/core/tenancy/tenant-context.ts';

const ctx: TenantContext = { id: 'aaaaaa' };
const L = 'tenancy.warren.dev/tenant';

const name = fc.constantFrom('a', 'b', 'view', 'edit');
const stringMap = fc.dictionary(fc.constantFrom('app', 'tier', L, 'kubernetes.io/metadata.name'), fc.constantFrom('x', 'aaaaaa', 'aaaaaa-dev', 'bbbbbb-dev'), { maxKeys: 3 });
const meta = fc.record({
  name, namespace: fc.option(fc.constantFrom('dev', 'aaaaaa-dev', 'bbbbbb-dev'), { nil: undefined }),
  labels: fc.option(stringMap, { nil: undefined }), annotations: fc.option(stringMap, { nil: undefined }),
  ownerReferences: fc.option(fc.array(fc.record({ apiVersion: fc.constantFrom('v1', 'apps/v1', 'a.com/v1'), kind: fc.constantFrom('ConfigMap', 'ReplicaSet', 'Foo', 'ClusterRole'), name, uid: fc.constant('u') }), { maxLength: 2 }), { nil: undefined }),
  managedFields: fc.option(fc.array(fc.record({ manager: fc.constant('m'), apiVersion: fc.constantFrom('v1', 'a.com/v1'), fieldsV1: fc.constant({ 'f:metadata': { 'f:labels': { [`f:${L}`]: {}, 'f:app': {} } } }) }), { maxLength: 2 }), { nil: undefined }),
}, { requiredKeys: ['name'] });
const kinds = fc.constantFrom(
  { apiVersion: 'v1', kind: 'ConfigMap' }, { apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' }, { apiVersion: 'v1', kind: 'Pod' }, { apiVersion: 'a.com/v1', kind: 'Foo' },
);
const object = fc.record({ type: kinds, metadata: meta, data: fc.option(stringMap, { nil: undefined }), spec: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
  template: fc.option(fc.record({ metadata: fc.record({ labels: stringMap }) }), { nil: undefined }),
  subjects: fc.option(fc.array(fc.record({ kind: fc.constantFrom('User', 'ServiceAccount'), name, namespace: fc.constantFrom('dev', 'aaaaaa-dev') }), { maxLength: 2 }), { nil: undefined }),
  roleRef: fc.option(fc.record({ apiGroup: fc.constant('rbac.authorization.k8s.io'), kind: fc.constantFrom('ClusterRole', 'Role'), name }), { nil: undefined }),
}).map(({ type, metadata, data, spec, template, subjects, roleRef }): KubeObject => {
  const obj: KubeObject = { ...type, metadata: JSON.parse(JSON.stringify(metadata)) as KubeObject['metadata'] };
  if (data) obj.data = data;
  if (spec !== undefined) obj.spec = type.kind === 'Deployment' && template ? { template } : spec;
  if (subjects) obj.subjects = subjects;
  if (roleRef) obj.roleRef = roleRef;
  return JSON.parse(JSON.stringify(obj)) as KubeObject; // as a body is: parsed JSON, plain prototypes
});

const attempt = <T>(f: () => T): T | 'threw' => { try { return f(); } catch { return 'threw'; } };

describe('translationCopy', () => {
  it('property: translating the copy upstream leaves the original as it was, and the copy equals it first', () => {
    fc.assert(fc.property(object, (obj) => {
      const before = structuredClone(obj);
      const copy = translationCopy(obj);
      assert.deepEqual(copy, before);
      attempt(() => toUpstreamObject(ctx, copy, { namespaced: true, type: { group: '', kind: obj.kind } }));
      assert.deepEqual(obj, before);
    }), { numRuns: 500 });
  });

  it('property: the tenant copy stays what the tenant sent while the body itself is translated upstream', () => {
    fc.assert(fc.property(object, (obj) => {
      const before = structuredClone(obj);
      const tenant = translationCopy(obj);
      attempt(() => toUpstreamObject(ctx, obj, { namespaced: true }));
      assert.deepEqual(tenant, before);
    }), { numRuns: 500 });
  });

  it('property: the read-back copy gets the deep clone\'s answer, and translating it out leaves the original as it was', () => {
    fc.assert(fc.property(object, (obj) => {
      const before = structuredClone(obj);
      const viaClone = attempt(() => toTenantObject(ctx, structuredClone(obj)) === undefined);
      const viaCopy = attempt(() => toTenantObject(ctx, translationCopy(obj, { readBackOnly: true })) === undefined);
      assert.equal(viaCopy, viaClone);
      attempt(() => toTenantObject(ctx, translationCopy(obj, { readBackOnly: true })));
      assert.deepEqual(obj, before);
    }), { numRuns: 500 });
  });
});

/** A label map that counts how often it is enumerated (spreads, Object.keys/values/entries, for...in). */
function countingLabels(n: number): { labels: Record<string, string>; enumerations: () => number } {
  const target: Record<string, string> = {};
  for (let i = 0; i < n; i++) target[`k${i.toString(36)}`] = 'v';
  let count = 0;
  const labels = new Proxy(target, { ownKeys(t) { count++; return Reflect.ownKeys(t); } });
  return { labels, enumerations: () => count };
}

describe('translation touches a label map a fixed number of times, whatever its size', () => {
  for (const n of [10, 10_000]) {
    it(`${n.toLocaleString('en-US')} labels, the way in: shape check, size check, one copy with the tenant label`, () => {
      const { labels, enumerations } = countingLabels(n);
      const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'dev', labels } };
      translationCopy(obj);
      const up = toUpstreamObject(ctx, obj, { namespaced: true, type: { group: '', kind: 'ConfigMap' } });
      assert.equal(up.metadata.labels?.[L], 'aaaaaa');
      assert.ok(enumerations() <= 3, `enumerated ${String(enumerations())} times`);
      assert.notEqual(up.metadata.labels, labels, 'the tenant\'s own map is not written to');
    });
    it(`${n.toLocaleString('en-US')} labels, the way out: no copy, the label removed in place`, () => {
      const { labels, enumerations } = countingLabels(n);
      labels[L] = 'aaaaaa';
      const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'aaaaaa-dev', labels } };
      const view = toTenantObject(ctx, obj);
      assert.equal(view?.metadata.labels, labels, 'the same map, not a copy');
      assert.equal(Object.hasOwn(labels, L), false);
      assert.ok(enumerations() <= 2, `enumerated ${String(enumerations())} times`);
      assert.equal(toTenantObject(ctx, translationCopy(obj, { readBackOnly: true }))?.metadata.labels, undefined, 'the read-back copy carries no labels to copy');
    });
  }
});
