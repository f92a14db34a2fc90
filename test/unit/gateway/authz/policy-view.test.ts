// The gateway's RBAC informers store a policy view of each upstream object: it
// must carry everything the authorizer reads (so a tenant's permissions cannot
// change), and drop or share the rest (memory per idle tenant).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicyView } from '../../../../src/gateway/authz/upstream-rbac-source.ts';
import { buildTenantRbac } from '../../../../src/controllers/onboarding/reconcile-rbac.ts';
import { toTenantObject } from '../../../../src/core/tenancy/object-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

/** An RBAC object as the upstream returns it: server fields and managedFields added. */
function asStored(obj: KubeObject, rv: number): KubeObject {
  return {
    ...structuredClone(obj),
    metadata: {
      ...structuredClone(obj.metadata), uid: `uid-${rv}`, resourceVersion: String(rv), creationTimestamp: '2026-01-01T00:00:00Z',
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
      managedFields: [{ manager: 'warren', operation: 'Update', fieldsV1: { 'f:rules': {} } }],
    },
  };
}

const AUTHORIZER_READS = ['apiVersion', 'kind', 'rules', 'subjects', 'roleRef', 'aggregationRule'] as const;

describe('createPolicyView', () => {
  const { roles, bindings } = buildTenantRbac('abc123', [{ name: 'alice', admin: true }]);
  const stored = [...roles, ...bindings].map((o, i) => asStored(o, i + 1));

  it('keeps every field the authorizer reads, identical after translation to the tenant view', () => {
    const view = createPolicyView();
    for (const obj of stored) {
      const v = view(structuredClone(obj));
      for (const field of AUTHORIZER_READS) assert.deepEqual(v[field], obj[field], `${obj.metadata.name}: ${field}`);
      assert.deepEqual(v.metadata, { name: obj.metadata.name, resourceVersion: obj.metadata.resourceVersion, labels: obj.metadata.labels });
      const tenantWhole = toTenantObject({ id: 'abc123' }, structuredClone(obj));
      const tenantView = toTenantObject({ id: 'abc123' }, structuredClone(v));
      assert.equal(tenantView?.metadata.name, tenantWhole?.metadata.name);
      for (const field of AUTHORIZER_READS) assert.deepEqual(tenantView?.[field], tenantWhole?.[field], `${obj.metadata.name}: tenant ${field}`);
    }
  });

  it('drops managedFields, annotations, uid and timestamps', () => {
    const v = createPolicyView()(structuredClone(stored[0]!));
    assert.equal(v.metadata.managedFields, undefined);
    assert.equal(v.metadata.annotations, undefined);
    assert.equal(v.metadata.uid, undefined);
    assert.equal(v.metadata.creationTimestamp, undefined);
  });

  it('shares identical rules between tenants, and keeps distinct rules once the pool is full', () => {
    const view = createPolicyView(2);
    const a = view(asStored({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'aaaaaa-x' }, rules: [{ verbs: ['get'], resources: ['pods'], apiGroups: [''] }] }, 1));
    const b = view(asStored({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'bbbbbb-x' }, rules: [{ verbs: ['get'], resources: ['pods'], apiGroups: [''] }] }, 2));
    assert.equal(a.rules, b.rules, 'one array for both');
    const distinct = [3, 4, 5].map((i) => view(asStored({ metadata: { name: `r${i}` }, rules: [{ verbs: [`v${i}`] }] }, i)));
    assert.deepEqual(distinct.map((d) => d.rules), [[{ verbs: ['v3'] }], [{ verbs: ['v4'] }], [{ verbs: ['v5'] }]]);
  });
});
