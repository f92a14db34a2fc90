// The roles onboarding seeds into every tenant: kube's bootstrap policy
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy, as its testdata/cluster-roles.yaml
// renders it) for cluster-admin, admin, edit, view and the roles that feed them,
// plus the discovery, basic-user and public-info roles bound to every
// authenticated user. admin, edit and view stay aggregated exactly as in kube (so a
// tenant's CRD roles labelled aggregate-to-* join them); defaultClusterRoles()
// returns them with the aggregated rules already filled.
import { aggregateClusterRoles } from './aggregation.ts';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED } from './subjects.ts';
import { RBAC_GROUP, type ClusterRole, type ClusterRoleBinding, type PolicyRule } from './types.ts';

const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view'): string => `${RBAC_GROUP}/aggregate-to-${role}`;
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const r = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const urls = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

const AGGREGATE_TO_VIEW: PolicyRule[] = [
  r([''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers',
    'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], READ),
  r([''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status',
    'resourcequotas', 'resourcequotas/status'], READ),
  r([''], ['namespaces'], READ),
  r(['discovery.k8s.io'], ['endpointslices'], READ),
  r(['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
    'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], READ),
  r(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
  r(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
  r(['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses',
    'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], READ),
  r(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
  r(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
];

const AGGREGATE_TO_EDIT: PolicyRule[] = [
  r([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
  r([''], ['serviceaccounts'], ['impersonate']),
  r([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], WRITE),
  r([''], ['pods/eviction'], ['create']),
  r([''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets',
    'serviceaccounts', 'services', 'services/proxy'], WRITE),
  r([''], ['serviceaccounts/token'], ['create']),
  r(['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale',
    'statefulsets', 'statefulsets/scale'], WRITE),
  r(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
  r(['batch'], ['cronjobs', 'jobs'], WRITE),
  r(['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies',
    'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], WRITE),
  r(['policy'], ['poddisruptionbudgets'], WRITE),
  r(['networking.k8s.io'], ['ingresses', 'networkpolicies'], WRITE),
  r(['coordination.k8s.io'], ['leases'], ALL_VERBS),
];

const AGGREGATE_TO_ADMIN: PolicyRule[] = [
  r(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']),
  r([RBAC_GROUP], ['rolebindings', 'roles'], ALL_VERBS),
];

function clusterRole(name: string, spec: { rules?: PolicyRule[]; labels?: Record<string, string>; aggregates?: 'admin' | 'edit' | 'view' }): ClusterRole {
  const role: ClusterRole = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...spec.labels },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    rules: (spec.rules ?? []).map((rule) => structuredClone(rule)),
  };
  if (spec.aggregates) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(spec.aggregates)]: 'true' } }] };
  return role;
}

/** Fresh objects on every call, so a caller may change what it gets. */
export function defaultClusterRoles(): ClusterRole[] {
  return aggregateClusterRoles([
    clusterRole('cluster-admin', { rules: [r(['*'], ['*'], ['*']), urls(['*'], ['*'])] }),
    clusterRole('admin', { aggregates: 'admin' }),
    clusterRole('edit', { aggregates: 'edit', labels: { [AGGREGATE_TO('admin')]: 'true' } }),
    clusterRole('view', { aggregates: 'view', labels: { [AGGREGATE_TO('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-admin', { rules: AGGREGATE_TO_ADMIN, labels: { [AGGREGATE_TO('admin')]: 'true' } }),
    clusterRole('system:aggregate-to-edit', { rules: AGGREGATE_TO_EDIT, labels: { [AGGREGATE_TO('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-view', { rules: AGGREGATE_TO_VIEW, labels: { [AGGREGATE_TO('view')]: 'true' } }),
    clusterRole('system:basic-user', {
      rules: [
        r(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']),
        r(['authentication.k8s.io'], ['selfsubjectreviews'], ['create']),
      ],
    }),
    clusterRole('system:discovery', {
      rules: [urls(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])],
    }),
    clusterRole('system:public-info-viewer', { rules: [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])] }),
  ]);
}

function groupBinding(role: string, groups: string[]): ClusterRoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: {
      name: role,
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: groups.map((name) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name })),
  };
}

/**
 * kube's bindings that let everyone read discovery and ask what they may do. Not
 * included: kube's cluster-admin binding to system:masters; onboarding binds the
 * tenant admin by name instead, so no group claim in a credential can make a user
 * tenant-admin.
 */
export function defaultClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    groupBinding('system:basic-user', [ALL_AUTHENTICATED]),
    groupBinding('system:discovery', [ALL_AUTHENTICATED]),
    groupBinding('system:public-info-viewer', [ALL_AUTHENTICATED, ALL_UNAUTHENTICATED]),
  ];
}
