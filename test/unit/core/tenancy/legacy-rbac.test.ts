// The one-off rewrite of tenant RBAC stored before ADR 0028 (legacy-rbac.ts):
// what is rewritten, to what, and that today's form is left alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateLegacyRbac } from '../../../../src/core/tenancy/legacy-rbac.ts';
import { toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const A = 'aaaaaa';
const RBAC = 'rbac.authorization.k8s.io';
const L = 'tenancy.warren.dev/tenant';

describe('legacy tenant RBAC in today\'s form', () => {
  it('a ClusterRole\'s unmapped label and selector keys move into the tenant\'s key space; its rules stay', () => {
    const legacy: KubeObject = {
      metadata: { name: `${A}-evil`, resourceVersion: '7', labels: { [L]: A, [`${RBAC}/aggregate-to-admin`]: 'true', team: 'x', [`${A}.${RBAC}/aggregate-to-edit`]: 'true' } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [L]: A, team: 'x' } }] },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    };
    const out = migrateLegacyRbac('ClusterRole', legacy);
    assert.ok(out);
    assert.deepEqual(out.metadata.labels, { [L]: A, [`${A}.${RBAC}/aggregate-to-admin`]: 'true', [`${A}/team`]: 'x', [`${A}.${RBAC}/aggregate-to-edit`]: 'true' });
    assert.deepEqual(out.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { [`${A}/team`]: 'x', [L]: A } }] });
    assert.deepEqual(out.rules, legacy.rules);
    assert.equal(out.metadata.resourceVersion, '7', 'written with the resourceVersion it was read at');
    assert.equal(out.metadata.name, `${A}-evil`);
  });

  it('binding subjects naming host identities become the tenant\'s warren:<id>: users; foreign ones go', () => {
    const legacy: KubeObject = {
      metadata: { name: 'b', namespace: `${A}-bots`, labels: { [L]: A } },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `${A}-cluster-admin` },
      subjects: [
        { kind: 'ServiceAccount', name: 'bot', namespace: `${A}-bots` },
        { kind: 'ServiceAccount', name: 'implicit' },
        { kind: 'User', apiGroup: RBAC, name: `system:serviceaccount:${A}-ci:builder` },
        { kind: 'Group', apiGroup: RBAC, name: `system:serviceaccounts:${A}-ci` },
        { kind: 'User', apiGroup: RBAC, name: `warren:${A}:alice` },
        { kind: 'ServiceAccount', name: 'x', namespace: 'bbbbbb-web' },
        { kind: 'Group', apiGroup: RBAC, name: 'system:masters' },
      ],
    };
    const out = migrateLegacyRbac('RoleBinding', legacy);
    assert.ok(out);
    assert.deepEqual(out.subjects, [
      { kind: 'User', apiGroup: RBAC, name: `warren:${A}:system:serviceaccount:bots:bot` },
      { kind: 'User', apiGroup: RBAC, name: `warren:${A}:system:serviceaccount:bots:implicit` },
      { kind: 'User', apiGroup: RBAC, name: `warren:${A}:system:serviceaccount:ci:builder` },
      { kind: 'Group', apiGroup: RBAC, name: `warren:${A}:system:serviceaccounts:ci` },
      { kind: 'User', apiGroup: RBAC, name: `warren:${A}:alice` },
    ]);
    assert.deepEqual(out.roleRef, legacy.roleRef);
  });

  it('objects already in today\'s form, and objects of no tenant, are left alone', () => {
    const ctx = { id: A };
    const role = toUpstreamObject(ctx, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'r', labels: { [`${RBAC}/aggregate-to-view`]: 'true' } }, rules: [] });
    const binding = toUpstreamObject(ctx, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'bots' }, { kind: 'User', apiGroup: RBAC, name: 'alice' }] });
    assert.equal(migrateLegacyRbac('ClusterRole', role), undefined);
    assert.equal(migrateLegacyRbac('ClusterRoleBinding', binding), undefined);
    assert.equal(migrateLegacyRbac('ClusterRole', { metadata: { name: 'admin', labels: { [`${RBAC}/aggregate-to-admin`]: 'true' } } }), undefined);
  });
});
