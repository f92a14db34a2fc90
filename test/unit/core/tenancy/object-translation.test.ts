import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { toTenantList, toTenantTable, toTenantWatchEvent } from '../../../../src/core/tenancy/response-translation.ts';
import { toTenantStatus } from '../../../../src/core/tenancy/status-translation.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject, Status } from '../../../../src/core/types.ts';
import type { TenantContext } from '../../../../src/core/tenancy/tenant-context.ts';

const ctx: TenantContext = { id: 'aaaaaa' };
const up = (o: unknown, namespaced?: boolean): KubeObject => toUpstreamObject(ctx, structuredClone(o) as KubeObject, namespaced === undefined ? {} : { namespaced });
const down = (o: unknown): KubeObject | undefined => toTenantObject(ctx, structuredClone(o) as KubeObject);
const L = 'tenancy.warren.dev/tenant';

// Tenant objects as a tenant would write them; each must survive toUpstream then toTenant unchanged.
const samples: Array<{ name: string; obj: unknown; check: (u: any) => void }> = [
  { name: 'pod', obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dev', labels: { app: 'x' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1' }] } },
    check: (u) => { assert.equal(u.metadata.namespace, 'aaaaaa-dev'); assert.equal(u.metadata.labels[L], 'aaaaaa'); assert.equal(u.metadata.ownerReferences[0].name, 'rs'); } },
  { name: 'namespace', obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } }, check: (u) => assert.equal(u.metadata.name, 'aaaaaa-dev') },
  { name: 'owner reference to a cluster-scoped tenant object', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'dev', ownerReferences: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'view', uid: 'u' }] } },
    check: (u) => assert.equal(u.metadata.ownerReferences[0].name, 'aaaaaa-view') },
  { name: 'owner reference to a custom kind', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'dev', ownerReferences: [{ apiVersion: 'a.com/v1', kind: 'Foo', name: 'f', uid: 'u' }] } },
    check: (u) => assert.equal(u.metadata.ownerReferences[0].apiVersion, 'aaaaaa-a.com/v1') },
  { name: 'crd', obj: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.a.com' }, spec: { group: 'a.com', names: { plural: 'foos', kind: 'Foo' }, scope: 'Namespaced' } },
    check: (u) => { assert.equal(u.metadata.name, 'foos.aaaaaa-a.com'); assert.equal(u.spec.group, 'aaaaaa-a.com'); assert.deepEqual(u.spec.names, { plural: 'foos', kind: 'Foo' }); } },
  { name: 'custom resource', obj: { apiVersion: 'a.com/v1', kind: 'Foo', metadata: { name: 'f', namespace: 'dev' } }, check: (u) => assert.equal(u.apiVersion, 'aaaaaa-a.com/v1') },
  { name: 'role binding', obj: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: 'dev' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'bot', namespace: 'ci' }] },
    check: (u) => { assert.equal(u.roleRef.name, 'aaaaaa-edit'); assert.deepEqual(u.subjects.map((s: any) => s.namespace ?? s.name), ['warren:aaaaaa:alice', 'warren:aaaaaa:devs', 'warren:aaaaaa:system:serviceaccount:ci:bot']); } },
  { name: 'core event', obj: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'dev' }, involvedObject: { kind: 'Pod', namespace: 'dev', name: 'p', uid: 'u' } },
    check: (u) => assert.equal(u.involvedObject.namespace, 'aaaaaa-dev') },
  { name: 'events.k8s.io event about a namespace', obj: { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e', namespace: 'dev' }, regarding: { kind: 'Namespace', apiVersion: 'v1', name: 'dev' } },
    check: (u) => assert.equal(u.regarding.name, 'aaaaaa-dev') },
  { name: 'endpoints', obj: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 's', namespace: 'dev' }, subsets: [{ addresses: [{ ip: '10.0.0.1', targetRef: { kind: 'Pod', namespace: 'dev', name: 'p' } }] }] },
    check: (u) => assert.equal(u.subsets[0].addresses[0].targetRef.namespace, 'aaaaaa-dev') },
  { name: 'pv claimRef', obj: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { claimRef: { kind: 'PersistentVolumeClaim', namespace: 'dev', name: 'c' } } },
    check: (u) => assert.equal(u.spec.claimRef.namespace, 'aaaaaa-dev') },
  { name: 'pvc volumeName of a platform PV is kept', obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'dev' }, spec: { volumeName: 'pvc-123' } },
    check: (u) => assert.equal(u.spec.volumeName, 'pvc-123') },
  { name: 'deployment template gets the label', obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'dev' }, spec: { template: { metadata: { labels: { app: 'x' } } } } },
    check: (u) => assert.equal(u.spec.template.metadata.labels[L], 'aaaaaa') },
  { name: 'aggregated cluster role selects only the tenant', obj: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }] } },
    check: (u) => assert.equal(u.aggregationRule.clusterRoleSelectors[0].matchLabels[L], 'aaaaaa') },
  { name: 'karmada propagation policy', obj: { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'pp', namespace: 'dev' }, spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'dev', name: 'd' }] } },
    check: (u) => assert.equal(u.spec.resourceSelectors[0].namespace, 'aaaaaa-dev') },
  { name: 'cluster-scoped custom resource from the path', obj: { apiVersion: 'a.com/v1', kind: 'Bar', metadata: { name: 'b' } }, check: (u) => assert.equal(u.metadata.name, 'aaaaaa-b') },
];

describe('object translation', () => {
  for (const s of samples) {
    it(`${s.name}: forward`, () => s.check(up(s.obj, (s.obj as KubeObject).metadata.namespace !== undefined)));
    it(`${s.name}: round trip`, () => assert.deepEqual(down(up(s.obj, (s.obj as KubeObject).metadata.namespace !== undefined)), s.obj));
  }

  it('round trip holds for any labels, names and namespaces', () => {
    const label = fc.stringMatching(/^[a-z]([a-z0-9]{0,8})$/);
    fc.assert(fc.property(label, label, fc.dictionary(label, label), fc.constantFrom('ConfigMap', 'Secret', 'Service'), (ns, name, labels, kind) => {
      const obj: KubeObject = { apiVersion: 'v1', kind, metadata: { name, namespace: ns, ...(Object.keys(labels).length ? { labels: { ...labels } } : {}) } };
      assert.deepEqual(down(up(obj)), obj);
    }));
  });

  it('the tenant cannot set the tenant label to another tenant', () => {
    const u = up({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'dev', labels: { [L]: 'bbbbbb' } } });
    assert.equal(u.metadata.labels?.[L], 'aaaaaa');
  });
  it('the tenant never sees the tenant label, not even in managedFields', () => {
    const t = down({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'aaaaaa-dev', labels: { [L]: 'aaaaaa' },
      managedFields: [{ manager: 'k', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { [`f:${L}`]: {} } } } }] } });
    assert.ok(t);
    assert.doesNotMatch(JSON.stringify(t), /tenancy\.warren\.dev/);
  });
  it('refuses a namespace over the budget with 422', () => {
    assert.throws(() => up({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n'.repeat(57) } }), (e: unknown) => e instanceof ApiError && e.code === 422 && !e.message.includes('aaaaaa'));
  });
});

describe('adversarial objects', () => {
  const hidden = [
    { name: "an object in B's namespace", obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'bbbbbb-dev' } } },
    { name: "B's namespace", obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bbbbbb-dev' } } },
    { name: "B's CRD", obj: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.bbbbbb-a.com' }, spec: { group: 'bbbbbb-a.com' } } },
    { name: "B's custom resource", obj: { apiVersion: 'bbbbbb-a.com/v1', kind: 'Foo', metadata: { name: 'f', namespace: 'aaaaaa-dev' } } },
    { name: 'a binding to a ClusterRole that is not the tenant\'s', obj: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: 'aaaaaa-dev' }, roleRef: { kind: 'ClusterRole', name: 'bbbbbb-admin', apiGroup: 'rbac.authorization.k8s.io' } } },
    { name: 'a platform namespace', obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } } },
  ];
  for (const c of hidden) it(`hides ${c.name}`, () => assert.equal(down(c.obj), undefined));

  it("drops references to B's objects and subjects, keeps the tenant's", () => {
    const t = down({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'aaaaaa-b', ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'bbbbbb-x', uid: 'u' }] },
      roleRef: { kind: 'ClusterRole', name: 'aaaaaa-view', apiGroup: 'rbac.authorization.k8s.io' },
      subjects: [{ kind: 'User', name: 'warren:bbbbbb:bob' }, { kind: 'User', name: 'warren:aaaaaa:alice' }, { kind: 'ServiceAccount', name: 's', namespace: 'bbbbbb-ci' }] });
    assert.ok(t);
    assert.deepEqual(t.subjects, [{ kind: 'User', name: 'alice' }]);
    assert.equal(t.metadata.ownerReferences, undefined);
    assert.doesNotMatch(JSON.stringify(t), /bbbbbb/);
  });
  it("an ownerReference to B's uid passes through untouched and unresolved", () => {
    const u = up({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'dev', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'uid-of-b' }] } });
    assert.deepEqual(u.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'uid-of-b' }]);
  });
  it("a subject in B's namespace stays inside A", () => {
    const u = up({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: 'dev' }, roleRef: { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' }, subjects: [{ kind: 'ServiceAccount', name: 's', namespace: 'bbbbbb-ci' }, { kind: 'User', name: 'warren:bbbbbb:bob' }] });
    assert.deepEqual((u.subjects as any[]).map((s) => s.namespace ?? s.name), ['warren:aaaaaa:system:serviceaccount:bbbbbb-ci:s', 'warren:aaaaaa:warren:bbbbbb:bob']);
  });
});

describe('responses', () => {
  it('lists keep only the tenant\'s items and drop remainingItemCount when filtered', () => {
    const list = toTenantList(ctx, { apiVersion: 'v1', kind: 'SecretList', metadata: { remainingItemCount: 5 }, items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'aaaaaa-dev' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b', namespace: 'bbbbbb-dev' } },
    ] });
    assert.deepEqual(list.items.map((i) => i.metadata.namespace), ['dev']);
    assert.equal(list.metadata.remainingItemCount, undefined);
  });
  const events = [
    { name: 'ADDED of the tenant', ev: { type: 'ADDED', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'aaaaaa-dev' } } }, want: { type: 'ADDED', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dev' } } } },
    { name: 'MODIFIED of B is dropped', ev: { type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'bbbbbb-dev' } } }, want: undefined },
    { name: 'BOOKMARK passes', ev: { type: 'BOOKMARK', object: { apiVersion: 'aaaaaa-a.com/v1', kind: 'Foo', metadata: { resourceVersion: '7' } } }, want: { type: 'BOOKMARK', object: { apiVersion: 'a.com/v1', kind: 'Foo', metadata: { resourceVersion: '7' } } } },
    { name: 'ERROR Status is scrubbed', ev: { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version in namespace aaaaaa-dev' } },
      want: { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version in namespace dev' } } },
  ];
  for (const c of events) it(`watch: ${c.name}`, () => assert.deepEqual(toTenantWatchEvent(ctx, structuredClone(c.ev) as any), c.want));

  it('Status errors never show a prefix', () => {
    const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422, reason: 'Invalid',
      message: 'RoleBinding.rbac.authorization.k8s.io "b" is invalid: subjects[0].namespace: Invalid value: "aaaaaa-bbbbbb-x"',
      details: { name: 'aaaaaa-dev', group: 'aaaaaa-a.com', kind: 'foos', causes: [{ field: 'metadata.namespace', message: 'namespace "aaaaaa-dev" not found' }] } };
    const t = toTenantStatus('aaaaaa', s);
    assert.doesNotMatch(JSON.stringify(t), /aaaaaa/);
    assert.equal(t.details?.name, 'dev');
    assert.equal(t.details?.group, 'a.com');
    assert.match(t.message ?? '', /"bbbbbb-x"/, 'what the tenant wrote, not an id of its own');
  });
  it("Status details.group of another tenant is removed", () => {
    const t = toTenantStatus('aaaaaa', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404, details: { group: 'bbbbbb-a.com' } });
    assert.equal(t.details?.group, undefined);
  });
  it('Tables: foreign rows dropped, names and cells unprefixed', () => {
    const table = toTenantTable(ctx, { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: {}, columnDefinitions: [{ name: 'Name', format: 'name' }, { name: 'Role' }],
      rows: [
        { cells: ['aaaaaa-b', 'ClusterRole/aaaaaa-view'], object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'aaaaaa-b' }, roleRef: { kind: 'ClusterRole', name: 'aaaaaa-view' } } },
        { cells: ['bbbbbb-b', 'ClusterRole/bbbbbb-view'], object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'bbbbbb-b' } } },
      ] });
    assert.deepEqual(table.rows?.map((r) => r.cells), [['b', 'ClusterRole/view']]);
  });

  it('keeps the tenant\'s rows whose object is PartialObjectMetadata (every row on a real kube-apiserver), drops the others', () => {
    const row = (namespace: string): { cells: unknown[]; object: unknown } => ({
      cells: ['web', 'True'], object: { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'web', namespace, labels: { [L]: namespace.slice(0, 6) } } },
    });
    const table = toTenantTable(ctx, { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: {}, columnDefinitions: [{ name: 'Name', format: 'name' }, { name: 'Scheduled' }],
      rows: [row('aaaaaa-default'), row('bbbbbb-default')] });
    assert.deepEqual(table.rows?.map((r) => (r.object as KubeObject).metadata.namespace), ['default']);
    assert.equal((table.rows?.[0]?.object as KubeObject).metadata.labels?.[L], undefined, 'the tenant label is not shown');
  });
});
