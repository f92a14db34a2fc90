// The built-in resources the embedded apiserver serves: one row each, with the
// scope, short names, categories and subresources of kube-apiserver 1.33.
import { ALL_VERBS, type ResourceDef } from './resource-def.ts';

interface Row {
  resource: string;
  kind: string;
  singular?: string;
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  subresources?: ResourceDef['subresources'];
  fieldSelectors?: Record<string, string>;
  generation?: boolean;
}

const NO_COLLECTION_DELETE = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

const groups: Array<{ group: string; version: string; rows: Row[] }> = [
  {
    group: '', version: 'v1', rows: [
      { resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], verbs: NO_COLLECTION_DELETE, subresources: { status: true, other: ['finalize'] }, fieldSelectors: { 'status.phase': '.status.phase' } },
      { resource: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'] },
      { resource: 'secrets', kind: 'Secret', fieldSelectors: { type: '.type' } },
      { resource: 'services', kind: 'Service', shortNames: ['svc'], categories: ['all'], subresources: { status: true, other: ['proxy'] } },
      { resource: 'serviceaccounts', kind: 'ServiceAccount', shortNames: ['sa'], subresources: { other: ['token'] } },
      {
        resource: 'pods', kind: 'Pod', shortNames: ['po'], categories: ['all'],
        subresources: { status: true, other: ['log', 'exec', 'attach', 'portforward', 'binding', 'eviction', 'ephemeralcontainers', 'proxy'] },
        fieldSelectors: {
          'spec.nodeName': '.spec.nodeName', 'spec.restartPolicy': '.spec.restartPolicy', 'spec.schedulerName': '.spec.schedulerName',
          'spec.serviceAccountName': '.spec.serviceAccountName', 'spec.hostNetwork': '.spec.hostNetwork', 'status.phase': '.status.phase',
          'status.podIP': '.status.podIP', 'status.nominatedNodeName': '.status.nominatedNodeName',
        },
      },
      { resource: 'podtemplates', kind: 'PodTemplate' },
      { resource: 'replicationcontrollers', kind: 'ReplicationController', shortNames: ['rc'], categories: ['all'], subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } }, generation: true },
      {
        resource: 'events', kind: 'Event', shortNames: ['ev'],
        fieldSelectors: {
          'involvedObject.kind': '.involvedObject.kind', 'involvedObject.namespace': '.involvedObject.namespace', 'involvedObject.name': '.involvedObject.name',
          'involvedObject.uid': '.involvedObject.uid', 'involvedObject.apiVersion': '.involvedObject.apiVersion',
          'involvedObject.resourceVersion': '.involvedObject.resourceVersion', 'involvedObject.fieldPath': '.involvedObject.fieldPath',
          reason: '.reason', reportingComponent: '.reportingComponent', source: '.source.component', type: '.type',
        },
      },
      { resource: 'endpoints', kind: 'Endpoints', singular: 'endpoints', shortNames: ['ep'] },
      { resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', shortNames: ['pvc'], subresources: { status: true } },
      { resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], subresources: { status: true } },
      { resource: 'resourcequotas', kind: 'ResourceQuota', shortNames: ['quota'], subresources: { status: true } },
      { resource: 'limitranges', kind: 'LimitRange', shortNames: ['limits'] },
      { resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], subresources: { status: true, other: ['proxy'] }, fieldSelectors: { 'spec.unschedulable': '.spec.unschedulable' } },
    ],
  },
  {
    group: 'apps', version: 'v1', rows: [
      { resource: 'deployments', kind: 'Deployment', shortNames: ['deploy'], categories: ['all'], subresources: { status: true, scale: SCALE }, generation: true },
      { resource: 'statefulsets', kind: 'StatefulSet', shortNames: ['sts'], categories: ['all'], subresources: { status: true, scale: SCALE }, generation: true },
      { resource: 'daemonsets', kind: 'DaemonSet', shortNames: ['ds'], categories: ['all'], subresources: { status: true }, generation: true },
      { resource: 'replicasets', kind: 'ReplicaSet', shortNames: ['rs'], categories: ['all'], subresources: { status: true, scale: SCALE }, generation: true, fieldSelectors: { 'status.replicas': '.status.replicas' } },
      { resource: 'controllerrevisions', kind: 'ControllerRevision' },
    ],
  },
  {
    group: 'batch', version: 'v1', rows: [
      { resource: 'jobs', kind: 'Job', categories: ['all'], subresources: { status: true }, generation: true, fieldSelectors: { 'status.successful': '.status.succeeded' } },
      { resource: 'cronjobs', kind: 'CronJob', shortNames: ['cj'], categories: ['all'], subresources: { status: true }, generation: true },
    ],
  },
  {
    group: 'networking.k8s.io', version: 'v1', rows: [
      { resource: 'ingresses', kind: 'Ingress', shortNames: ['ing'], subresources: { status: true }, generation: true },
      { resource: 'ingressclasses', kind: 'IngressClass', namespaced: false },
      { resource: 'networkpolicies', kind: 'NetworkPolicy', shortNames: ['netpol'], generation: true },
    ],
  },
  {
    group: 'rbac.authorization.k8s.io', version: 'v1', rows: [
      { resource: 'roles', kind: 'Role' },
      { resource: 'rolebindings', kind: 'RoleBinding' },
      { resource: 'clusterroles', kind: 'ClusterRole', namespaced: false },
      { resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
    ],
  },
  { group: 'storage.k8s.io', version: 'v1', rows: [{ resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] }] },
  { group: 'scheduling.k8s.io', version: 'v1', rows: [{ resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] }] },
  { group: 'coordination.k8s.io', version: 'v1', rows: [{ resource: 'leases', kind: 'Lease' }] },
  {
    group: 'events.k8s.io', version: 'v1', rows: [{
      resource: 'events', kind: 'Event', shortNames: ['ev'],
      fieldSelectors: { 'regarding.kind': '.regarding.kind', 'regarding.name': '.regarding.name', 'regarding.namespace': '.regarding.namespace', 'regarding.uid': '.regarding.uid', reason: '.reason', type: '.type', reportingController: '.reportingController' },
    }],
  },
  { group: 'policy', version: 'v1', rows: [{ resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', shortNames: ['pdb'], subresources: { status: true }, generation: true }] },
  { group: 'autoscaling', version: 'v2', rows: [{ resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'], categories: ['all'], subresources: { status: true } }] },
  {
    group: 'admissionregistration.k8s.io', version: 'v1', rows: [
      { resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'], generation: true },
      { resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'], generation: true },
      { resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false, categories: ['api-extensions'], subresources: { status: true }, generation: true },
      { resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, categories: ['api-extensions'], generation: true },
    ],
  },
  {
    group: 'apiextensions.k8s.io', version: 'v1', rows: [
      { resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: { status: true }, generation: true },
    ],
  },
  {
    group: 'authorization.k8s.io', version: 'v1', rows: [
      { resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, verbs: ['create'] },
      { resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, verbs: ['create'] },
    ],
  },
];

function toDef(group: string, version: string, row: Row): ResourceDef {
  const def: ResourceDef = {
    group,
    version,
    resource: row.resource,
    singular: row.singular ?? row.kind.toLowerCase(),
    kind: row.kind,
    listKind: `${row.kind}List`,
    namespaced: row.namespaced ?? true,
    verbs: row.verbs ?? ALL_VERBS,
  };
  if (row.shortNames) def.shortNames = row.shortNames;
  if (row.categories) def.categories = row.categories;
  if (row.subresources) def.subresources = row.subresources;
  if (row.fieldSelectors) def.fieldSelectors = row.fieldSelectors;
  if (row.generation) def.generation = true;
  return def;
}

export const BUILTIN_RESOURCES: readonly ResourceDef[] = groups.flatMap((g) => g.rows.map((row) => toDef(g.group, g.version, row)));

/** Group order as kube-apiserver lists it in /apis (core first, then by priority). */
export const BUILTIN_GROUP_ORDER: readonly string[] = groups.map((g) => g.group).filter((g) => g !== '');
