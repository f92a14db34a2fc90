// Patch strategies and merge keys of the built-in kinds, as kube's OpenAPI
// publishes them (x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key,
// from the `patchStrategy` / `patchMergeKey` struct tags in k8s.io/api), plus the
// minimal type graph that strategic merge and server-side apply need to recurse.
//
// Why a static table and not @kubernetes/client-node's attributeTypeMap: core
// must stay pure, client-node carries no patch metadata anyway, and only the
// paths that lead to a strategic field matter. A field absent from both tables is
// "untyped below here": its objects merge as plain maps and its lists replace
// atomically, which is exactly what kube does for a field with no tags.
//
// The OpenAPI engineer imports PATCH_STRATEGIES: keep its shape stable.

export type PatchStrategy = 'merge' | 'retainKeys' | 'merge,retainKeys' | 'replace';

export interface FieldStrategy {
  strategy: PatchStrategy;
  /** x-kubernetes-patch-merge-key; absent on a merge list of primitives (finalizers). */
  mergeKey?: string;
  /** Definition name of the list items / object value, for recursion. */
  itemType?: string;
  /**
   * x-kubernetes-list-map-keys when they differ from [mergeKey]: server-side
   * apply identifies items by all of them (e.g. containerPort + protocol).
   */
  listMapKeys?: string[];
}

const CORE = 'io.k8s.api.core.v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const APPS = 'io.k8s.api.apps.v1';
const BATCH = 'io.k8s.api.batch.v1';

const byName = (itemType?: string): FieldStrategy => ({ strategy: 'merge', mergeKey: 'name', ...(itemType ? { itemType } : {}) });
const conditions = (itemType?: string): FieldStrategy => ({ strategy: 'merge', mergeKey: 'type', ...(itemType ? { itemType } : {}) });

// Containers and ephemeral containers share these (EphemeralContainerCommon
// repeats Container's tags).
const CONTAINER_LISTS: Record<string, FieldStrategy> = {
  ports: { strategy: 'merge', mergeKey: 'containerPort', itemType: `${CORE}.ContainerPort`, listMapKeys: ['containerPort', 'protocol'] },
  env: byName(`${CORE}.EnvVar`),
  volumeMounts: { strategy: 'merge', mergeKey: 'mountPath', itemType: `${CORE}.VolumeMount` },
  volumeDevices: { strategy: 'merge', mergeKey: 'devicePath', itemType: `${CORE}.VolumeDevice` },
};

export const PATCH_STRATEGIES: Record<string, Record<string, FieldStrategy>> = {
  [`${META}.ObjectMeta`]: {
    finalizers: { strategy: 'merge' },
    ownerReferences: { strategy: 'merge', mergeKey: 'uid', itemType: `${META}.OwnerReference` },
  },
  [`${CORE}.PodSpec`]: {
    volumes: { strategy: 'merge,retainKeys', mergeKey: 'name', itemType: `${CORE}.Volume` },
    initContainers: byName(`${CORE}.Container`),
    containers: byName(`${CORE}.Container`),
    ephemeralContainers: byName(`${CORE}.EphemeralContainer`),
    imagePullSecrets: byName(`${CORE}.LocalObjectReference`),
    hostAliases: { strategy: 'merge', mergeKey: 'ip', itemType: `${CORE}.HostAlias` },
    topologySpreadConstraints: {
      strategy: 'merge', mergeKey: 'topologyKey', itemType: `${CORE}.TopologySpreadConstraint`,
      listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
    },
    schedulingGates: byName(`${CORE}.PodSchedulingGate`),
    resourceClaims: { strategy: 'merge,retainKeys', mergeKey: 'name', itemType: `${CORE}.PodResourceClaim` },
  },
  [`${CORE}.Container`]: CONTAINER_LISTS,
  [`${CORE}.EphemeralContainer`]: CONTAINER_LISTS,
  [`${CORE}.PodStatus`]: {
    conditions: conditions(`${CORE}.PodCondition`),
    podIPs: { strategy: 'merge', mergeKey: 'ip', itemType: `${CORE}.PodIP` },
    hostIPs: { strategy: 'merge', mergeKey: 'ip', itemType: `${CORE}.HostIP` },
    resourceClaimStatuses: { strategy: 'merge,retainKeys', mergeKey: 'name', itemType: `${CORE}.PodResourceClaimStatus` },
  },
  [`${CORE}.ServiceSpec`]: {
    ports: { strategy: 'merge', mergeKey: 'port', itemType: `${CORE}.ServicePort`, listMapKeys: ['port', 'protocol'] },
  },
  [`${CORE}.ServiceStatus`]: { conditions: conditions(`${META}.Condition`) },
  [`${CORE}.ServiceAccount`]: { secrets: byName(`${CORE}.ObjectReference`) },
  [`${CORE}.NodeSpec`]: { podCIDRs: { strategy: 'merge' } },
  [`${CORE}.NodeStatus`]: {
    conditions: conditions(`${CORE}.NodeCondition`),
    addresses: { strategy: 'merge', mergeKey: 'type', itemType: `${CORE}.NodeAddress` },
  },
  [`${CORE}.NamespaceStatus`]: { conditions: conditions(`${CORE}.NamespaceCondition`) },
  [`${CORE}.PersistentVolumeClaimStatus`]: { conditions: conditions(`${CORE}.PersistentVolumeClaimCondition`) },
  [`${CORE}.ReplicationControllerStatus`]: { conditions: conditions(`${CORE}.ReplicationControllerCondition`) },
  [`${APPS}.DeploymentSpec`]: { strategy: { strategy: 'retainKeys', itemType: `${APPS}.DeploymentStrategy` } },
  [`${APPS}.DeploymentStatus`]: { conditions: conditions(`${APPS}.DeploymentCondition`) },
  [`${APPS}.ReplicaSetStatus`]: { conditions: conditions(`${APPS}.ReplicaSetCondition`) },
  [`${APPS}.StatefulSetStatus`]: { conditions: conditions(`${APPS}.StatefulSetCondition`) },
  [`${APPS}.DaemonSetStatus`]: { conditions: conditions(`${APPS}.DaemonSetCondition`) },
  [`${BATCH}.JobStatus`]: { conditions: conditions(`${BATCH}.JobCondition`) },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': { conditions: conditions(`${META}.Condition`) },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': { conditions: conditions('io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition') },
};

const OBJECT_META = `${META}.ObjectMeta`;
const POD_TEMPLATE = `${CORE}.PodTemplateSpec`;
const LABEL_SELECTOR = `${META}.LabelSelector`;

/**
 * Non-strategic fields whose type must be known to reach a strategic field
 * below them (or, for server-side apply, an atomic struct). Lists of objects
 * listed here name their item type.
 */
export const FIELD_TYPES: Record<string, Record<string, string>> = {
  [POD_TEMPLATE]: { metadata: OBJECT_META, spec: `${CORE}.PodSpec` },
  [`${CORE}.Pod`]: { spec: `${CORE}.PodSpec`, status: `${CORE}.PodStatus` },
  [`${CORE}.PodTemplate`]: { template: POD_TEMPLATE },
  [`${CORE}.ReplicationController`]: { spec: `${CORE}.ReplicationControllerSpec`, status: `${CORE}.ReplicationControllerStatus` },
  [`${CORE}.ReplicationControllerSpec`]: { template: POD_TEMPLATE },
  [`${CORE}.Service`]: { spec: `${CORE}.ServiceSpec`, status: `${CORE}.ServiceStatus` },
  [`${CORE}.Node`]: { spec: `${CORE}.NodeSpec`, status: `${CORE}.NodeStatus` },
  [`${CORE}.Namespace`]: { status: `${CORE}.NamespaceStatus` },
  [`${CORE}.PersistentVolumeClaim`]: { status: `${CORE}.PersistentVolumeClaimStatus` },
  [`${APPS}.Deployment`]: { spec: `${APPS}.DeploymentSpec`, status: `${APPS}.DeploymentStatus` },
  [`${APPS}.DeploymentSpec`]: { template: POD_TEMPLATE, selector: LABEL_SELECTOR },
  [`${APPS}.ReplicaSet`]: { spec: `${APPS}.ReplicaSetSpec`, status: `${APPS}.ReplicaSetStatus` },
  [`${APPS}.ReplicaSetSpec`]: { template: POD_TEMPLATE, selector: LABEL_SELECTOR },
  [`${APPS}.StatefulSet`]: { spec: `${APPS}.StatefulSetSpec`, status: `${APPS}.StatefulSetStatus` },
  [`${APPS}.StatefulSetSpec`]: { template: POD_TEMPLATE, selector: LABEL_SELECTOR },
  [`${APPS}.DaemonSet`]: { spec: `${APPS}.DaemonSetSpec`, status: `${APPS}.DaemonSetStatus` },
  [`${APPS}.DaemonSetSpec`]: { template: POD_TEMPLATE, selector: LABEL_SELECTOR },
  [`${BATCH}.Job`]: { spec: `${BATCH}.JobSpec`, status: `${BATCH}.JobStatus` },
  [`${BATCH}.JobSpec`]: { template: POD_TEMPLATE, selector: LABEL_SELECTOR },
  [`${BATCH}.CronJob`]: { spec: `${BATCH}.CronJobSpec` },
  [`${BATCH}.CronJobSpec`]: { jobTemplate: `${BATCH}.JobTemplateSpec` },
  [`${BATCH}.JobTemplateSpec`]: { metadata: OBJECT_META, spec: `${BATCH}.JobSpec` },
  'io.k8s.api.policy.v1.PodDisruptionBudget': { status: 'io.k8s.api.policy.v1.PodDisruptionBudgetStatus' },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler': { status: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus' },
};

/** Structs marked +structType=atomic: server-side apply owns them as one leaf. */
export const ATOMIC_STRUCTS: ReadonlySet<string> = new Set([LABEL_SELECTOR]);

/**
 * Definition names of the built-in kinds that accept strategic merge patch,
 * keyed by "group/version/Kind" (core group written as "v1/Kind"). Every
 * built-in kind does; custom resources do not (kube answers 415).
 */
export const BUILTIN_DEFINITIONS: Record<string, string> = Object.fromEntries(([
  ['', 'v1', 'core', ['Pod', 'PodTemplate', 'ReplicationController', 'Service', 'Node', 'Namespace', 'PersistentVolumeClaim',
    'PersistentVolume', 'ConfigMap', 'Secret', 'ServiceAccount', 'Endpoints', 'Event', 'LimitRange', 'ResourceQuota']],
  ['apps', 'v1', 'apps', ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ControllerRevision']],
  ['batch', 'v1', 'batch', ['Job', 'CronJob']],
  ['networking.k8s.io', 'v1', 'networking', ['Ingress', 'IngressClass', 'NetworkPolicy']],
  ['rbac.authorization.k8s.io', 'v1', 'rbac', ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']],
  ['storage.k8s.io', 'v1', 'storage', ['StorageClass']],
  ['scheduling.k8s.io', 'v1', 'scheduling', ['PriorityClass']],
  ['coordination.k8s.io', 'v1', 'coordination', ['Lease']],
  ['events.k8s.io', 'v1', 'events', ['Event']],
  ['policy', 'v1', 'policy', ['PodDisruptionBudget']],
  ['autoscaling', 'v2', 'autoscaling', ['HorizontalPodAutoscaler']],
  ['admissionregistration.k8s.io', 'v1', 'admissionregistration',
    ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']],
] as const).flatMap(([group, version, pkg, kinds]) =>
  kinds.map((kind) => [`${group ? `${group}/` : ''}${version}/${kind}`, `io.k8s.api.${pkg}.${version}.${kind}`])),
);
// CRDs themselves are built in (served by apiextensions-apiserver, which accepts SMP).
BUILTIN_DEFINITIONS['apiextensions.k8s.io/v1/CustomResourceDefinition'] =
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition';
// A 1.20 host serves CronJob as batch/v1beta1 only (batch/v1 from 1.21); its fields and patch strategies are
// batch/v1's, so `kubectl patch cronjob` (strategic by default) is merged with those.
BUILTIN_DEFINITIONS['batch/v1beta1/CronJob'] = 'io.k8s.api.batch.v1.CronJob';
