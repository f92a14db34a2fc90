// admitRbacWrite, the gateway adapter the admission chain calls on the final
// object of RBAC writes: the request (URL) decides resource, verb and namespace;
// only RBAC writes are judged; refusals are kube's, in the tenant's terms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { buildPolicyIndex, defaultClusterRoles } from '../../../../src/core/rbac/index.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { admitRbacWrite } from '../../../../src/gateway/authz/rbac-write-admission.ts';
import type { Identity } from '../../../../src/gateway/identity.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const RBAC = 'rbac.authorization.k8s.io';
const policy = buildPolicyIndex({
  clusterRoles: defaultClusterRoles(),
  clusterRoleBindings: [],
  roles: [{ metadata: { namespace: 't', name: 'rb-writer' }, rules: [{ apiGroups: [RBAC], resources: ['rolebindings', 'roles'], verbs: ['create', 'update', 'patch'] }] }],
  roleBindings: [{ metadata: { namespace: 't', name: 'bob' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'rb-writer' }, subjects: [{ kind: 'User', name: 'bob' }] }],
});
const bob: Identity = { tenantId: 'acme01', user: 'bob', groups: [], via: 'certificate', issuedAt: new Date(0) };
const info = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams());
const binding = (name: string, roleName: string): KubeObject => ({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace: 't' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects: [{ kind: 'User', name: 'bob' }] } as unknown as KubeObject);

function forbidden(fn: () => void, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof ApiError && e.code === 403 && pattern.test(e.message));
}

describe('admitRbacWrite', () => {
  it('refuses a RoleBinding to cluster-admin on create, update and patch, in tenant terms', () => {
    for (const [method, path] of [['POST', `/apis/${RBAC}/v1/namespaces/t/rolebindings`], ['PUT', `/apis/${RBAC}/v1/namespaces/t/rolebindings/x`], ['PATCH', `/apis/${RBAC}/v1/namespaces/t/rolebindings/x`]] as const) {
      forbidden(() => admitRbacWrite(policy, bob, info(method, path), binding('x', 'cluster-admin')),
        /^rolebindings\.rbac\.authorization\.k8s\.io "x" is forbidden: user "bob" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
    }
  });

  it('refuses rewriting his own Role to "*"', () => {
    const role = { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'rb-writer', namespace: 't' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } as unknown as KubeObject;
    forbidden(() => admitRbacWrite(policy, bob, info('PUT', `/apis/${RBAC}/v1/namespaces/t/roles/rb-writer`), role), /^roles\.rbac\.authorization\.k8s\.io "rb-writer" is forbidden: /);
  });

  it('allows a binding of a role he holds; ignores reads, deletes and other resources', () => {
    const own = { ...binding('x', 'ignored'), roleRef: { apiGroup: RBAC, kind: 'Role', name: 'rb-writer' } } as unknown as KubeObject;
    admitRbacWrite(policy, bob, info('POST', `/apis/${RBAC}/v1/namespaces/t/rolebindings`), own);
    admitRbacWrite(policy, bob, info('DELETE', `/apis/${RBAC}/v1/namespaces/t/rolebindings/x`), binding('x', 'cluster-admin'));
    admitRbacWrite(policy, bob, info('GET', `/apis/${RBAC}/v1/namespaces/t/rolebindings/x`), binding('x', 'cluster-admin'));
    admitRbacWrite(policy, bob, info('POST', '/api/v1/namespaces/t/configmaps'), binding('x', 'cluster-admin'));
  });

  it('the URL decides the namespace, never the body: a body naming another namespace is judged in the URL\'s', () => {
    const elsewhere = { ...binding('x', 'ignored'), metadata: { name: 'x', namespace: 'u' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'rb-writer' } } as unknown as KubeObject;
    admitRbacWrite(policy, bob, info('POST', `/apis/${RBAC}/v1/namespaces/t/rolebindings`), elsewhere);
    forbidden(() => admitRbacWrite(policy, bob, info('POST', `/apis/${RBAC}/v1/namespaces/u/rolebindings`), { ...elsewhere, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' } } as unknown as KubeObject), /is attempting to grant/);
  });
});
