// ownedByBinding / mayTakeOver / splitTargets / scopeRbacForMember: the rules by
// which the engine touches a member object (ADR 19, 20).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../../src/core/types.ts';
import { mayTakeOver, ownedByBinding } from '../../../../../src/core/propagation/trust/member-ownership.ts';
import { splitTargets } from '../../../../../src/core/propagation/trust/allowed-targets.ts';
import { CLUSTER_ROLE_BINDING_REFUSED, scopeRbacForMember } from '../../../../../src/core/propagation/trust/member-rbac.ts';

const A = 'aaaaaa';
const MARKS = { 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': 'u1', 'tenancy.warren.dev/tenant': A };
const CONFIGMAP = { group: '', kind: 'ConfigMap' };
const NAMESPACE = { group: '', kind: 'Namespace', clusterScoped: true } as const;
const obj = (namespace: string | undefined, name: string, labels?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'X', metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) } });

describe('ownedByBinding', () => {
  it('the engine\'s own copy, at the binding\'s address', () => {
    assert.equal(ownedByBinding(A, 'u1', CONFIGMAP, obj(`${A}-dev`, 'web', MARKS), { namespace: `${A}-dev`, name: 'web' }), true);
    assert.equal(ownedByBinding(A, 'u1', NAMESPACE, obj(undefined, `${A}-dev`, MARKS)), true);
  });
  const notOurs: Array<[string, KubeObject, typeof CONFIGMAP | typeof NAMESPACE]> = [
    ['a member-local ConfigMap (no marks)', obj(`${A}-dev`, 'local'), CONFIGMAP],
    ['another binding\'s copy', obj(`${A}-dev`, 'web', { ...MARKS, 'resourcebinding.karmada.io/permanent-id': 'u2' }), CONFIGMAP],
    ['marked but another tenant\'s label', obj(`${A}-dev`, 'web', { ...MARKS, 'tenancy.warren.dev/tenant': 'bbbbbb' }), CONFIGMAP],
    ['marked but in another tenant\'s namespace', obj('bbbbbb-dev', 'web', MARKS), CONFIGMAP],
    ['a namespace the engine made implicitly (tenant label only)', obj(undefined, `${A}-dev`, { 'tenancy.warren.dev/tenant': A }), NAMESPACE],
    ['another tenant\'s namespace carrying forged marks', obj(undefined, 'bbbbbb-prod', MARKS), NAMESPACE],
    ['not managed', obj(`${A}-dev`, 'web', { ...MARKS, 'karmada.io/managed': 'false' }), CONFIGMAP],
  ];
  for (const [name, o, row] of notOurs) it(`not: ${name}`, () => assert.equal(ownedByBinding(A, 'u1', row, o), false));
  it('not with an empty binding uid', () => assert.equal(ownedByBinding(A, '', CONFIGMAP, obj(`${A}-dev`, 'web', { ...MARKS, 'resourcebinding.karmada.io/permanent-id': '' })), false));
  it('not at another address', () => assert.equal(ownedByBinding(A, 'u1', CONFIGMAP, obj(`${A}-dev`, 'web', MARKS), { namespace: `${A}-dev`, name: 'other' }), false));
});

describe('mayTakeOver', () => {
  it('a namespace the engine made for this tenant, without Overwrite', () => assert.equal(mayTakeOver(A, NAMESPACE, obj(undefined, `${A}-dev`, { 'tenancy.warren.dev/tenant': A }), false), true));
  it('not an unlabelled namespace without Overwrite', () => assert.equal(mayTakeOver(A, NAMESPACE, obj(undefined, `${A}-dev`), false), false));
  it('an unmarked object in the tenant\'s namespace with Overwrite', () => assert.equal(mayTakeOver(A, CONFIGMAP, obj(`${A}-dev`, 'web'), true), true));
  it('not, even with Overwrite, a copy marked for some binding without the tenant\'s label (its tenant label removed)', () => {
    assert.equal(mayTakeOver(A, CONFIGMAP, obj(`${A}-dev`, 'web', { 'resourcebinding.karmada.io/permanent-id': 'uid-of-b' }), true), false);
    assert.equal(mayTakeOver(A, CONFIGMAP, obj(`${A}-dev`, 'web', { 'clusterresourcebinding.karmada.io/permanent-id': 'uid-of-b' }), true), false);
    assert.equal(mayTakeOver(A, CONFIGMAP, obj(`${A}-dev`, 'web', { 'karmada.io/managed': 'true' }), true), false);
  });
  it('with Overwrite, the tenant\'s own copy of an older binding', () =>
    assert.equal(mayTakeOver(A, CONFIGMAP, obj(`${A}-dev`, 'web', { ...MARKS, 'resourcebinding.karmada.io/permanent-id': 'old' }), true), true));
  it('never another tenant\'s object, even with Overwrite', () => {
    assert.equal(mayTakeOver(A, CONFIGMAP, obj(`${A}-dev`, 'web', { 'tenancy.warren.dev/tenant': 'bbbbbb' }), true), false);
    assert.equal(mayTakeOver(A, CONFIGMAP, obj('bbbbbb-dev', 'web'), true), false);
    assert.equal(mayTakeOver(A, NAMESPACE, obj(undefined, 'kube-system'), true), false);
  });
});

describe('splitTargets', () => {
  it('keeps the allowed clusters, reports the others, once each', () => {
    const out = splitTargets([{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 1 }, { name: 'member2', replicas: 5 }, { name: 'ghost' }], new Set(['member2']));
    assert.deepEqual(out, { allowed: [{ name: 'member2', replicas: 1 }], refused: [{ name: 'member1', replicas: 2 }, { name: 'ghost' }] });
  });
});

describe('scopeRbacForMember', () => {
  it('refuses a ClusterRoleBinding', () => {
    assert.deepEqual(scopeRbacForMember({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `${A}-x` } }), { ok: false, reason: CLUSTER_ROLE_BINDING_REFUSED });
  });
  it('drops aggregate-to-* labels (as written, and in the tenant\'s upstream key space) and the aggregationRule of a ClusterRole, keeps its rules and other labels', () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
      metadata: { name: `${A}-x`, labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-view': 'true', [`${A}.rbac.authorization.k8s.io/aggregate-to-edit`]: 'true', app: 'x', ...MARKS } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    } as KubeObject;
    const out = scopeRbacForMember(role);
    assert.ok(out.ok);
    assert.deepEqual(out.obj.metadata.labels, { app: 'x', ...MARKS });
    assert.equal((out.obj as { aggregationRule?: unknown }).aggregationRule, undefined);
    assert.deepEqual((out.obj as { rules?: unknown }).rules, role.rules);
    assert.ok((role as { aggregationRule?: unknown }).aggregationRule, 'the input is not changed');
  });
  it('passes other kinds unchanged', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } } };
    assert.deepEqual(scopeRbacForMember(cm), { ok: true, obj: cm });
  });
});
