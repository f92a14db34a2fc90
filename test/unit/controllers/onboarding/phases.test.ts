// Pure phases: spec validation, ensure* drift, the tenant's namespaces and
// RBAC as they land upstream, and which cluster-scoped objects are the tenant's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateTenantSpec } from '../../../../src/tenants/validate-spec.ts';
import { driftOf, ensureObject, mergeOwned } from '../../../../src/controllers/onboarding/ensure-object.ts';
import { buildTenantNamespaces } from '../../../../src/controllers/onboarding/reconcile-namespaces.ts';
import { buildTenantRbac } from '../../../../src/controllers/onboarding/reconcile-rbac.ts';
import { belongsToTenant } from '../../../../src/controllers/onboarding/cleanup-tenant.ts';
import type { Tenant } from '../../../../src/tenants/tenant-crd.ts';
import { fakeClient } from './fake-client.ts';

const t = (spec: Record<string, unknown>, status?: Record<string, unknown>): Tenant => ({ apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'x' }, spec, ...(status ? { status } : {}) }) as Tenant;

describe('validateTenantSpec', () => {
  const cases: { name: string; tenant: Tenant; want: RegExp | null }[] = [
    { name: 'a full valid spec', tenant: t({ id: 'abc123', users: [{ name: 'a', admin: true }], podSecurity: 'restricted', credentials: { certificateLifetime: '1h30m' } }), want: null },
    { name: 'an empty spec', tenant: t({}), want: null },
    { name: 'a malformed id', tenant: t({ id: 'Nope' }), want: /^spec\.id: / },
    { name: 'an unknown podSecurity level', tenant: t({ podSecurity: 'lax' }), want: /spec\.podSecurity/ },
    { name: 'duplicate users', tenant: t({ users: [{ name: 'a' }, { name: 'a' }] }), want: /spec\.users\[1\]\.name: duplicate/ },
    { name: 'a lifetime too short to rotate', tenant: t({ credentials: { certificateLifetime: '1s' } }), want: /at least 3s/ },
    { name: 'a spec.id changed after assignment', tenant: t({ id: 'abc123' }, { id: 'zzz999' }), want: /immutable/ },
    { name: 'a placement contract (ADR 0043)', tenant: t({ placement: { nodeSelector: { pool: 'acme' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'acme', effect: 'NoSchedule' }, { operator: 'Exists', effect: 'NoSchedule' }] } }), want: null },
    { name: 'an allowed toleration with an empty key but not Exists', tenant: t({ placement: { tolerations: [{ operator: 'Equal', value: 'x' }] } }), want: /spec\.placement\.tolerations\[0\]\.operator: must be Exists when key is empty/ },
    { name: 'an allowed Exists toleration with a value', tenant: t({ placement: { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } }), want: /tolerations\[0\]\.value: must be empty/ },
    { name: 'an unknown toleration effect', tenant: t({ placement: { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoRun' }] } }), want: /spec\.placement\.tolerations\.0\.effect|effect/ },
    { name: 'a node selector value that is not a string', tenant: t({ placement: { nodeSelector: { pool: 3 } } }), want: /spec\.placement\.nodeSelector/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const problems = validateTenantSpec(c.tenant);
      if (c.want === null) assert.deepEqual(problems, []);
      else assert.ok(problems.some((p) => c.want?.test(p)), problems.join(' | '));
    });
  }
});

describe('ensure*', () => {
  const desired = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { a: '1' } }, spec: { x: [1] } };

  it('sees drift only in owned fields', () => {
    const existing = { ...structuredClone(desired), metadata: { name: 'n', labels: { a: '1', other: 'kept' }, uid: 'u' }, status: { phase: 'Active' } };
    assert.deepEqual(driftOf(existing, desired), []);
    assert.deepEqual(driftOf({ ...existing, spec: { x: [2] } }, desired), ['spec']);
    assert.deepEqual(driftOf({ ...existing, metadata: { name: 'n' } }, desired), ['metadata.labels.a']);
    assert.deepEqual(driftOf({ ...existing, spec: { x: [2] } }, desired, ['spec']), []);
    assert.deepEqual(mergeOwned({ ...existing, spec: { x: [2] } }, desired).metadata.labels, { a: '1', other: 'kept' });
  });

  it('creates, then leaves alone, then repairs', async () => {
    const client = fakeClient();
    assert.equal(await ensureObject(client, '/api/v1/namespaces', desired), 'created');
    assert.equal(await ensureObject(client, '/api/v1/namespaces', desired), 'unchanged');
    const stored = client.objects.get('/api/v1/namespaces/n');
    if (stored) stored.metadata.labels = { a: 'weakened' };
    assert.equal(await ensureObject(client, '/api/v1/namespaces', desired), 'updated');
    assert.equal(client.objects.get('/api/v1/namespaces/n')?.metadata.labels?.a, '1');
  });
});

describe('what onboarding writes upstream', () => {
  it('four prefixed, labelled namespaces at the tenant PSA level', () => {
    const namespaces = buildTenantNamespaces('abc123', 'restricted');
    assert.deepEqual(namespaces.map((n) => n.metadata.name), ['abc123-default', 'abc123-kube-system', 'abc123-kube-public', 'abc123-kube-node-lease']);
    for (const ns of namespaces) {
      assert.equal(ns.metadata.labels?.['tenancy.warren.dev/tenant'], 'abc123');
      for (const mode of ['enforce', 'audit', 'warn']) assert.equal(ns.metadata.labels?.[`pod-security.kubernetes.io/${mode}`], 'restricted');
    }
  });

  it('prefixed roles, translated aggregation selectors, and admins bound by upstream user name', () => {
    const rbac = buildTenantRbac('abc123', [{ name: 'zoe', admin: true }, { name: 'al', admin: true }, { name: 'bo' }]);
    const names = rbac.roles.map((r) => r.metadata.name);
    for (const role of ['cluster-admin', 'admin', 'edit', 'view']) assert.ok(names.includes(`abc123-${role}`), role);
    for (const obj of [...rbac.roles, ...rbac.bindings]) assert.equal(obj.metadata.labels?.['tenancy.warren.dev/tenant'], 'abc123');
    const admin = rbac.roles.find((r) => r.metadata.name === 'abc123-admin');
    assert.ok(admin?.aggregationRule);
    assert.notDeepEqual(admin.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] },
      'an untranslated selector would aggregate every upstream role');
    const binding = rbac.bindings.find((b) => b.metadata.name === 'abc123-warren:tenant-admins') as { subjects?: { name: string }[]; roleRef?: { name: string } } | undefined;
    assert.deepEqual(binding?.subjects?.map((s) => s.name), ['warren:abc123:al', 'warren:abc123:zoe']);
    assert.equal(binding?.roleRef?.name, 'abc123-cluster-admin');
  });
});

describe('belongsToTenant', () => {
  const obj = (name: string, labels?: Record<string, string>, spec?: unknown) => ({ metadata: { name, ...(labels ? { labels } : {}) }, ...(spec ? { spec } : {}) });
  const cases = [
    { name: 'labelled, any resource', path: '/apis/x.io/v1/things', obj: obj('whatever', { 'tenancy.warren.dev/tenant': 'abc123' }), want: true },
    { name: 'another tenant label', path: '/apis/x.io/v1/things', obj: obj('abc123-a', { 'tenancy.warren.dev/tenant': 'zzz999' }), want: false },
    { name: 'prefixed namespace', path: '/api/v1/namespaces', obj: obj('abc123-apps'), want: true },
    { name: 'prefixed clusterrole', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', obj: obj('abc123-mine'), want: true },
    { name: 'prefix alone says nothing for other resources', path: '/apis/x.io/v1/things', obj: obj('abc123-a'), want: false },
    { name: 'CRD of a tenant group', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', obj: obj('foos.abc123-a.com', undefined, { group: 'abc123-a.com' }), want: true },
    { name: 'CRD of another group', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', obj: obj('foos.a.com', undefined, { group: 'a.com' }), want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(belongsToTenant('abc123', c.path, c.obj), c.want));
});
