// Fuzzing object, list and watch-event translation: arbitrary JSON where an
// object should be (as a body or an upstream response may hold) is translated
// or refused with a Status, never a crash; valid tenant objects round-trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../src/core/tenancy/object-translation.ts';
import { toTenantList, toTenantWatchEvent } from '../../../src/core/tenancy/response-translation.ts';
import type { KubeList, KubeObject, WatchEvent } from '../../../src/core/types.ts';
import type { TenantContext } from '../../../src/core/tenancy/tenant-context.ts';
import { RUNS, dnsLabel, nastyString, refusedOnlyWithStatus } from './fuzz-helpers.ts';

const ctx: TenantContext = { id: 'aaaaaa', user: 'alice' };
const KINDS: Array<[string, string]> = [['v1', 'ConfigMap'], ['v1', 'Pod'], ['v1', 'Namespace'], ['v1', 'Event'], ['v1', 'Service'], ['apps/v1', 'Deployment'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole'], ['rbac.authorization.k8s.io/v1', 'RoleBinding'], ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'], ['a.com/v1', 'Foo'], ['policy.karmada.io/v1alpha1', 'PropagationPolicy'], ['v1', 'PersistentVolumeClaim']];

// Anything JSON, with a kind's shape often enough to reach its converter.
const anything = fc.jsonValue({ maxDepth: 4 });
const objectish = fc.record({
  kv: fc.constantFrom(...KINDS),
  metadata: fc.oneof(anything, fc.record({ name: fc.oneof(dnsLabel, nastyString, anything), namespace: fc.oneof(dnsLabel, nastyString, anything), generateName: fc.oneof(dnsLabel, anything),
    labels: fc.oneof(fc.dictionary(nastyString, nastyString), anything), ownerReferences: fc.oneof(anything, fc.array(fc.record({ apiVersion: fc.constantFrom('v1', 'a.com/v1', 'rbac.authorization.k8s.io/v1', '', '/'), kind: fc.constantFrom('ConfigMap', 'ClusterRole', 'Foo', ''), name: nastyString, uid: fc.string() }), { maxLength: 2 })),
    managedFields: fc.oneof(anything, fc.array(fc.record({ apiVersion: fc.oneof(nastyString, anything), fieldsV1: anything }), { maxLength: 2 })) }, { requiredKeys: [] })),
  rest: fc.dictionary(fc.constantFrom('spec', 'subjects', 'roleRef', 'involvedObject', 'regarding', 'related', 'data', 'status'), anything),
}).map(({ kv, metadata, rest }) => ({ apiVersion: kv[0], kind: kv[1], metadata, ...rest }));

const CRASHES_ALLOWED_ONLY_AS_STATUS = (step: () => unknown): void => void refusedOnlyWithStatus(step);

describe('fuzz: object, list and watch translation', () => {
  it('drops an upstream cluster-scoped object whose name is null (fast-check counterexample, seed -1119562139)', () => {
    const obj = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: null } } as unknown as KubeObject;
    assert.equal(toTenantObject({ id: 'acme01' }, obj), undefined);
  });

  it('toUpstreamObject / toTenantObject take any JSON object: a result or a Status', () => {
    fc.assert(fc.property(fc.oneof(objectish, anything.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v))), fc.option(fc.boolean(), { nil: undefined }), (obj, namespaced) => {
      CRASHES_ALLOWED_ONLY_AS_STATUS(() => toUpstreamObject(ctx, structuredClone(obj) as KubeObject, namespaced === undefined ? {} : { namespaced }));
      CRASHES_ALLOWED_ONLY_AS_STATUS(() => toTenantObject(ctx, structuredClone(obj) as KubeObject));
    }), { numRuns: 3_000 });
  });

  it('lists and watch events of arbitrary upstream objects: a result or a Status', () => {
    fc.assert(fc.property(fc.array(objectish, { maxLength: 4 }), fc.constantFrom('ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'), (items, type) => {
      const list = { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '1', remainingItemCount: 3 }, items: structuredClone(items) } as unknown as KubeList;
      const out = refusedOnlyWithStatus(() => toTenantList(ctx, list));
      if (out) assert.ok(Array.isArray(out.items));
      for (const item of items) {
        refusedOnlyWithStatus(() => toTenantWatchEvent(ctx, { type, object: structuredClone(item) } as unknown as WatchEvent));
      }
    }), { numRuns: 1_000 });
  });

  it('round trip: a valid tenant object comes back unchanged through upstream, alone, in a list and in a watch event', () => {
    // At least one label: an empty labels map comes back absent (the tenant label was its only entry upstream).
    const labels = fc.dictionary(dnsLabel, dnsLabel, { minKeys: 1, maxKeys: 3, noNullPrototype: true });
    const kind = fc.constantFrom<[string, string, boolean]>(['v1', 'ConfigMap', true], ['v1', 'Secret', true], ['apps/v1', 'Deployment', true], ['rbac.authorization.k8s.io/v1', 'ClusterRole', false], ['v1', 'Namespace', false], ['a.com/v1', 'Foo', true]);
    fc.assert(fc.property(kind, dnsLabel.filter((n) => n.length <= 56), dnsLabel, labels, fc.dictionary(dnsLabel, fc.string(), { maxKeys: 3, noNullPrototype: true }), ([apiVersion, k, namespaced], ns, name, lbls, data) => {
      const tenant: KubeObject = { apiVersion, kind: k, metadata: { name, ...(namespaced ? { namespace: ns } : {}), labels: lbls, uid: 'u-1', resourceVersion: '7' }, data } as KubeObject;
      const upstream = toUpstreamObject(ctx, structuredClone(tenant), { namespaced });
      assert.notDeepEqual(upstream, tenant);
      assert.deepEqual(toTenantObject(ctx, structuredClone(upstream)), tenant);
      const list = toTenantList(ctx, { apiVersion: 'v1', kind: 'List', metadata: {}, items: [structuredClone(upstream)] } as unknown as KubeList);
      assert.deepEqual(list.items, [tenant]);
      assert.deepEqual(toTenantWatchEvent(ctx, { type: 'MODIFIED', object: structuredClone(upstream) }), { type: 'MODIFIED', object: tenant });
      // Another tenant's copy never shows.
      assert.equal(toTenantObject({ id: 'bbbbbb' }, structuredClone(upstream)), undefined);
    }), RUNS);
  });
});
