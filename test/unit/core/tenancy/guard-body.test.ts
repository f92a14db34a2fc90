// The isolation guard on written objects: each reference a tenant could aim at
// another tenant (or at the platform) is refused on the exact upstream body,
// whatever the translator did. Bodies are upstream terms for tenant aaaaaa.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';

const A = 'aaaaaa';
const LABELS = { 'tenancy.warren.dev/tenant': A };
const PSA = Object.fromEntries(['enforce', 'audit', 'warn'].flatMap((m) => [[`pod-security.kubernetes.io/${m}`, 'restricted'], [`pod-security.kubernetes.io/${m}-version`, 'latest']]));
const RBAC = 'rbac.authorization.k8s.io';
const guard = (method: string, path: string, body: unknown) => guardUpstreamRequest(A, { method, path, query: new URLSearchParams(), body, podSecurity: 'restricted' });

const rb = (extra: Record<string, unknown>) => ({
  apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'b', namespace: 'aaaaaa-web', labels: LABELS },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'aaaaaa-view' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'warren:aaaaaa:dev' }], ...extra,
});
const ns = (labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'aaaaaa-web', labels: { ...LABELS, ...labels } } });
const crd = (conversion: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.aaaaaa-a.com', labels: LABELS },
  spec: { group: 'aaaaaa-a.com', names: { plural: 'foos', kind: 'Foo' }, scope: 'Namespaced', versions: [], conversion },
});
const pod = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'aaaaaa-web', labels: LABELS }, spec: { containers: [], ...spec } });
const deployment = (podSpec: Record<string, unknown>) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'aaaaaa-web', labels: LABELS },
  spec: { template: { metadata: { labels: LABELS }, spec: { containers: [], ...podSpec } } },
});
const RB_PATH = `/apis/${RBAC}/v1/namespaces/aaaaaa-web/rolebindings`;
const POD_PATH = '/api/v1/namespaces/aaaaaa-web/pods';

describe('guard: written objects that reach outside the tenant are refused', () => {
  const refused: Array<[string, string, string, unknown]> = [
    ['a RoleBinding without kind', 'POST', RB_PATH, { ...rb({}), kind: undefined }],
    ['a RoleBinding without apiVersion', 'POST', RB_PATH, { ...rb({}), apiVersion: undefined }],
    ['a RoleBinding sent as a Role', 'POST', RB_PATH, { ...rb({}), kind: 'Role' }],
    ['subject Group system:masters', 'POST', RB_PATH, rb({ subjects: [{ kind: 'Group', apiGroup: RBAC, name: 'system:masters' }] })],
    ['subject User admin', 'POST', RB_PATH, rb({ subjects: [{ kind: 'User', apiGroup: RBAC, name: 'admin' }] })],
    ['subject User of another tenant', 'POST', RB_PATH, rb({ subjects: [{ kind: 'User', apiGroup: RBAC, name: 'warren:bbbbbb:admin' }] })],
    ['subject ServiceAccount of another tenant', 'POST', RB_PATH, rb({ subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'bbbbbb-web' }] })],
    ['subject ServiceAccount without namespace', 'POST', RB_PATH, rb({ subjects: [{ kind: 'ServiceAccount', name: 'default' }] })],
    ['subject User that is another tenant\'s service account', 'POST', RB_PATH, rb({ subjects: [{ kind: 'User', name: 'system:serviceaccount:bbbbbb-web:default' }] })],
    ['subject Group system:serviceaccounts (all of them)', 'POST', RB_PATH, rb({ subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }] })],
    // ADR 0028: the tenant's own host ServiceAccount holds a token the host accepts; no binding may name it.
    ['subject ServiceAccount of the tenant itself (a host identity)', 'POST', RB_PATH, rb({ subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'aaaaaa-web' }] })],
    ['subject User that is the tenant\'s own host service account', 'POST', RB_PATH, rb({ subjects: [{ kind: 'User', apiGroup: RBAC, name: 'system:serviceaccount:aaaaaa-web:ci' }] })],
    ['subject Group of the tenant\'s own host namespace\'s service accounts', 'POST', RB_PATH, rb({ subjects: [{ kind: 'Group', apiGroup: RBAC, name: 'system:serviceaccounts:aaaaaa-web' }] })],
    ['roleRef to the upstream cluster-admin', 'POST', RB_PATH, rb({ roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' } })],
    ['roleRef to another tenant\'s ClusterRole', 'PUT', `${RB_PATH}/b`, rb({ roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'bbbbbb-admin' } })],
    ['ClusterRoleBinding to a Role', 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, { ...rb({ roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' } }), kind: 'ClusterRoleBinding', metadata: { name: 'aaaaaa-b', labels: LABELS } }],
    ['a ClusterRoleBinding to the tenant\'s own service account (its token works upstream, cluster-wide)', 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, { ...rb({ subjects: [{ kind: 'ServiceAccount', name: 'ci', namespace: 'aaaaaa-web' }] }), kind: 'ClusterRoleBinding', metadata: { name: 'aaaaaa-b', labels: LABELS } }],
    ['a ClusterRoleBinding to the tenant\'s service accounts group', 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, { ...rb({ subjects: [{ kind: 'Group', name: 'system:serviceaccounts:aaaaaa-web' }] }), kind: 'ClusterRoleBinding', metadata: { name: 'aaaaaa-b', labels: LABELS } }],
    ['ClusterRole aggregating without the tenant label', 'POST', `/apis/${RBAC}/v1/clusterroles`, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'aaaaaa-agg', labels: LABELS }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }],
    ['a Namespace without the tenant\'s Pod Security level', 'POST', '/api/v1/namespaces', ns({ ...PSA, 'pod-security.kubernetes.io/enforce': 'privileged' })],
    ['a Namespace without Pod Security labels', 'PUT', '/api/v1/namespaces/aaaaaa-web', ns({})],
    ['a Namespace whose name label names another', 'PUT', '/api/v1/namespaces/aaaaaa-web', ns({ ...PSA, 'kubernetes.io/metadata.name': 'bbbbbb-web' })],
    ['an object without the tenant label', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-web' } }],
    ['an object with another tenant\'s label', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-web', labels: { 'tenancy.warren.dev/tenant': 'bbbbbb' } } }],
    ['a body namespace unlike the path\'s (both the tenant\'s)', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-other', labels: LABELS } }],
    ['a body name unlike the path\'s', 'PUT', `${POD_PATH}/q`, pod({})],
    ['a CRD conversion webhook in another tenant\'s namespace', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({ strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'bbbbbb-web', name: 'conv' } } } })],
    ['a CRD conversion webhook by URL', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://10.0.0.1/' } } })],
    ['a CRD in another tenant\'s group', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { ...crd(undefined), spec: { group: 'bbbbbb-a.com' } }],
    ['an ownerReference to another tenant\'s Namespace', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-web', labels: LABELS, ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'bbbbbb-web', uid: 'u' }] } }],
    ['an ownerReference to a platform Node', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-web', labels: LABELS, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u' }] } }],
    ['an ownerReference into another tenant\'s CRD group', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-web', labels: LABELS, ownerReferences: [{ apiVersion: 'bbbbbb-a.com/v1', kind: 'Foo', name: 'f', uid: 'u' }] } }],
    ['pod affinity naming another tenant\'s namespace', 'POST', POD_PATH, pod({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'x', namespaces: ['bbbbbb-web'] }] } } })],
    ['pod anti-affinity with a namespaceSelector over every namespace', 'POST', POD_PATH, pod({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'x', namespaceSelector: {} } }] } } })],
    ['a Deployment template with a foreign affinity namespace', 'POST', '/apis/apps/v1/namespaces/aaaaaa-web/deployments', deployment({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'x', namespaces: ['kube-system'] }] } } })],
    ['a Service ExternalName into another tenant\'s namespace', 'POST', '/api/v1/namespaces/aaaaaa-web/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'aaaaaa-web', labels: LABELS }, spec: { type: 'ExternalName', externalName: 'db.bbbbbb-web.svc.cluster.local' } }],
    ['a new claim of a platform volume by name', 'POST', '/api/v1/namespaces/aaaaaa-web/persistentvolumeclaims', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'aaaaaa-web', labels: LABELS }, spec: { volumeName: 'pv-of-someone' } }],
    ['an Event about another tenant\'s object', 'POST', '/api/v1/namespaces/aaaaaa-web/events', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'aaaaaa-web', labels: LABELS }, involvedObject: { kind: 'Pod', namespace: 'bbbbbb-web', name: 'p' } }],
    ['a PropagationPolicy selecting another tenant\'s namespace', 'POST', '/apis/policy.karmada.io/v1alpha1/namespaces/aaaaaa-web/propagationpolicies', { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'pp', namespace: 'aaaaaa-web', labels: LABELS }, spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'bbbbbb-web' }] } }],
    ['a ClusterResourceBinding re-pointed at another tenant\'s namespace', 'PUT', '/apis/work.karmada.io/v1alpha2/clusterresourcebindings/aaaaaa-x', { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', metadata: { name: 'aaaaaa-x', labels: LABELS }, spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: 'bbbbbb-web' } } }],
    ['a ClusterResourceBinding without apiVersion', 'PUT', '/apis/work.karmada.io/v1alpha2/clusterresourcebindings/aaaaaa-x', { kind: 'ClusterResourceBinding', metadata: { name: 'aaaaaa-x', labels: LABELS }, spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: 'aaaaaa-web' } } }],
    ['a Scale sent as something else', 'PUT', '/apis/apps/v1/namespaces/aaaaaa-web/deployments/d/scale', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'aaaaaa-web', labels: LABELS } }],
    ['a body for an untyped subresource', 'POST', '/api/v1/namespaces/aaaaaa-web/pods/p/proxy', pod({})],
  ];
  for (const [name, method, path, body] of refused) {
    it(name, () => {
      const err = guard(method, path, body);
      assert.ok(err, 'refused');
      assert.equal(err.code, 403);
    });
  }
});

describe('guard: the tenant\'s own objects pass', () => {
  const allowed: Array<[string, string, string, unknown]> = [
    ['a RoleBinding to the tenant\'s users, groups and service accounts', 'POST', RB_PATH, rb({ subjects: [
      { kind: 'User', apiGroup: RBAC, name: 'warren:aaaaaa:dev' }, { kind: 'Group', apiGroup: RBAC, name: 'warren:aaaaaa:system:masters' },
      { kind: 'User', apiGroup: RBAC, name: 'warren:aaaaaa:system:serviceaccount:web:default' },
      { kind: 'Group', apiGroup: RBAC, name: 'warren:aaaaaa:system:serviceaccounts:web' },
    ] })],
    ['a RoleBinding to a Role of its namespace', 'POST', RB_PATH, rb({ roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' } })],
    ['a Namespace at the tenant\'s level', 'PUT', '/api/v1/namespaces/aaaaaa-web', ns({ ...PSA, 'kubernetes.io/metadata.name': 'aaaaaa-web' })],
    ['a CRD with its webhook in the tenant\'s namespace', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({ strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'aaaaaa-web', name: 'conv' } } } })],
    ['a Pod with local volumes, a service account and own affinity namespaces', 'POST', POD_PATH, pod({
      serviceAccountName: 'ci', volumes: [{ name: 's', secret: { secretName: 's' } }, { name: 'c', configMap: { name: 'c' } }, { name: 'v', persistentVolumeClaim: { claimName: 'c' } }],
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'x', namespaces: ['aaaaaa-db'], namespaceSelector: { matchLabels: LABELS } }] } },
    })],
    ['an ExternalName outside the cluster', 'POST', '/api/v1/namespaces/aaaaaa-web/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'aaaaaa-web', labels: LABELS }, spec: { type: 'ExternalName', externalName: 'example.com' } }],
    ['an ExternalName to the tenant\'s own service', 'POST', '/api/v1/namespaces/aaaaaa-web/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'aaaaaa-web', labels: LABELS }, spec: { type: 'ExternalName', externalName: 'db.aaaaaa-db.svc.cluster.local' } }],
    ['a Scale', 'PUT', '/apis/apps/v1/namespaces/aaaaaa-web/deployments/d/scale', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd', namespace: 'aaaaaa-web' }, spec: { replicas: 2 } }],
    ['a custom resource of its own group', 'POST', '/apis/aaaaaa-a.com/v1/namespaces/aaaaaa-web/foos', { apiVersion: 'aaaaaa-a.com/v1', kind: 'Foo', metadata: { name: 'f', namespace: 'aaaaaa-web', labels: LABELS } }],
    ['an ownerReference to its own Namespace and Deployment', 'POST', POD_PATH, { ...pod({}), metadata: { name: 'p', namespace: 'aaaaaa-web', labels: LABELS, ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'aaaaaa-web', uid: 'u' }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'v' }] } }],
  ];
  for (const [name, method, path, body] of allowed) it(name, () => assert.equal(guard(method, path, body), null));
});
