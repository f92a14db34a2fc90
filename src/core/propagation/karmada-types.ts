// Karmada's API shapes, with Karmada's own field names, as the propagation
// engine reads and writes them. Only the fields Warren acts on are typed;
// everything else a tenant writes is kept as is by the upstream.
//   cluster.karmada.io/v1alpha1  Cluster
//   policy.karmada.io/v1alpha1   (Cluster)PropagationPolicy, (Cluster)OverridePolicy
//   work.karmada.io/v1alpha2     (Cluster)ResourceBinding
//   work.karmada.io/v1alpha1     Work
import type { Condition, KubeObject } from '../types.ts';
import type { LabelSelectorObject } from '../selectors/index.ts';

// ---------------------------------------------------------------- Cluster

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export type { Condition } from '../types.ts';

/** Quantities by resource name ("cpu": "4", "memory": "8Gi", "pods": "110"). */
export type ResourceList = Record<string, string>;

export interface ClusterSpec {
  id?: string;
  syncMode?: 'Push' | 'Pull';
  apiEndpoint?: string;
  /** A Secret holding either `kubeconfig`, or `token` and `caBundle`. */
  secretRef?: { namespace: string; name: string };
  insecureSkipTLSVerification?: boolean;
  provider?: string;
  region?: string;
  zone?: string;
  zones?: string[];
  taints?: Taint[];
}

export interface ClusterStatus {
  kubernetesVersion?: string;
  conditions?: Condition[];
  nodeSummary?: { totalNum?: number; readyNum?: number };
  resourceSummary?: { allocatable?: ResourceList; allocating?: ResourceList; allocated?: ResourceList };
}

export interface Cluster extends KubeObject {
  spec: ClusterSpec;
  status?: ClusterStatus;
}

/** Taint keys Karmada's cluster controller sets from health. */
export const TAINT_NOT_READY = 'cluster.karmada.io/not-ready';
export const TAINT_UNREACHABLE = 'cluster.karmada.io/unreachable';

// ---------------------------------------------------------------- Placement

export interface FieldSelectorRequirement {
  /** provider, region or zone */
  key: string;
  operator: 'In' | 'NotIn';
  values?: string[];
}

export interface ClusterAffinity {
  labelSelector?: LabelSelectorObject;
  fieldSelector?: { matchExpressions?: FieldSelectorRequirement[] };
  clusterNames?: string[];
  exclude?: string[];
}

export interface ClusterAffinityTerm extends ClusterAffinity {
  affinityName: string;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect;
  tolerationSeconds?: number;
}

export interface SpreadConstraint {
  spreadByField?: 'cluster' | 'region' | 'zone' | 'provider';
  spreadByLabel?: string;
  maxGroups?: number;
  minGroups?: number;
}

export interface StaticClusterWeight {
  targetCluster: ClusterAffinity;
  weight: number;
}

/**
 * Warren's own, beyond Karmada (Karmada has no per-cluster replica bounds; its open
 * proposal, karmada-io/karmada#6520, is for a minimum only): the replicas every cluster
 * matching targetCluster may hold. Several entries matching one cluster combine to the
 * tightest bounds. See scheduler/replica-limits.ts for the semantics.
 */
export interface ClusterReplicaLimit {
  targetCluster: ClusterAffinity;
  minReplicas?: number;
  maxReplicas?: number;
}

export interface ReplicaSchedulingStrategy {
  replicaSchedulingType?: 'Duplicated' | 'Divided';
  replicaDivisionPreference?: 'Aggregated' | 'Weighted';
  weightPreference?: {
    staticWeightList?: StaticClusterWeight[];
    dynamicWeight?: 'AvailableReplicas';
  };
  /** Warren's own: per-cluster minimum and maximum replicas. */
  clusterReplicaLimits?: ClusterReplicaLimit[];
}

export interface Placement {
  clusterAffinity?: ClusterAffinity;
  clusterAffinities?: ClusterAffinityTerm[];
  clusterTolerations?: Toleration[];
  spreadConstraints?: SpreadConstraint[];
  replicaScheduling?: ReplicaSchedulingStrategy;
}

// ---------------------------------------------------------------- Policies

export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  labelSelector?: LabelSelectorObject;
}

export interface PropagationSpec {
  resourceSelectors: ResourceSelector[];
  propagateDeps?: boolean;
  placement?: Placement;
  priority?: number;
  schedulerName?: string;
  conflictResolution?: 'Abort' | 'Overwrite';
  preserveResourcesOnDeletion?: boolean;
  suspension?: { dispatching?: boolean; dispatchingOnClusters?: { clusterNames?: string[] } };
  failover?: {
    cluster?: { purgeMode?: 'Directly' | 'Gracefully' | 'Never' };
    application?: { decisionConditions?: { tolerationSeconds?: number }; purgeMode?: string; gracePeriodSeconds?: number };
  };
}

/** PropagationPolicy (namespaced) or ClusterPropagationPolicy. */
export interface PropagationPolicy extends KubeObject {
  spec: PropagationSpec;
}

export type OverrideOperator = 'add' | 'remove' | 'replace';

export interface PlaintextOverrider { path: string; operator: OverrideOperator; value?: unknown }
export interface ImageOverrider {
  predicate?: { path: string };
  component: 'Registry' | 'Repository' | 'Tag';
  operator: OverrideOperator;
  value?: string;
}
export interface CommandArgsOverrider { containerName: string; operator: 'add' | 'remove'; value?: string[] }
export interface LabelAnnotationOverrider { operator: OverrideOperator; value?: Record<string, string> }
export interface FieldOverrider {
  fieldPath: string;
  json?: Array<{ subPath: string; operator: OverrideOperator; value?: unknown }>;
  yaml?: Array<{ subPath: string; operator: OverrideOperator; value?: unknown }>;
}
/** Warren's own, beyond Karmada: set or remove environment variables of a container. */
export interface EnvOverrider { containerName: string; operator: OverrideOperator; value?: Array<{ name: string; value?: string }> }

export interface Overriders {
  plaintext?: PlaintextOverrider[];
  imageOverrider?: ImageOverrider[];
  commandOverrider?: CommandArgsOverrider[];
  argsOverrider?: CommandArgsOverrider[];
  labelsOverrider?: LabelAnnotationOverrider[];
  annotationsOverrider?: LabelAnnotationOverrider[];
  fieldOverrider?: FieldOverrider[];
  envOverrider?: EnvOverrider[];
}

export interface OverrideRule {
  targetCluster?: ClusterAffinity;
  overriders: Overriders;
}

export interface OverrideSpec {
  resourceSelectors?: ResourceSelector[];
  overrideRules?: OverrideRule[];
  /** Deprecated form, still honoured when overrideRules is empty. */
  targetCluster?: ClusterAffinity;
  overriders?: Overriders;
}

/** OverridePolicy (namespaced) or ClusterOverridePolicy. */
export interface OverridePolicy extends KubeObject {
  spec: OverrideSpec;
}

// ---------------------------------------------------------------- Bindings and Works

export interface ObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
}

export interface TargetCluster {
  name: string;
  replicas?: number;
}

export type ResourceHealth = 'Healthy' | 'Unhealthy' | 'Unknown';

export interface AggregatedStatusItem {
  clusterName: string;
  status?: Record<string, unknown>;
  applied?: boolean;
  appliedMessage?: string;
  health?: ResourceHealth;
}

export interface ReplicaRequirements {
  resourceRequest?: ResourceList;
}

export interface ResourceBindingSpec {
  resource: ObjectReference;
  propagateDeps?: boolean;
  replicaRequirements?: ReplicaRequirements;
  replicas?: number;
  clusters?: TargetCluster[];
  placement?: Placement;
  conflictResolution?: 'Abort' | 'Overwrite';
  preserveResourcesOnDeletion?: boolean;
  suspension?: PropagationSpec['suspension'];
  failover?: PropagationSpec['failover'];
  /** Clusters losing their replicas (failover): their copies stay until the new ones are healthy. */
  gracefulEvictionTasks?: GracefulEvictionTask[];
  /** Bindings that pulled this one in as a dependency (propagateDeps). */
  requiredBy?: Array<{ namespace?: string; name: string; clusters?: TargetCluster[] }>;
  /**
   * Karmada ≥ 1.12 (set by WorkloadRebalancer, or by hand): when later than
   * status.lastScheduledTime, the binding is rescheduled Fresh.
   */
  rescheduleTriggeredAt?: string;
}

export interface GracefulEvictionTask {
  fromCluster: string;
  replicas?: number;
  reason: string;
  message?: string;
  producer: string;
  creationTimestamp?: string;
}

export interface ResourceBindingStatus {
  schedulerObservedGeneration?: number;
  schedulerObservingAffinityName?: string;
  lastScheduledTime?: string;
  conditions?: Condition[];
  aggregatedStatus?: AggregatedStatusItem[];
}

export interface ResourceBinding extends KubeObject {
  spec: ResourceBindingSpec;
  status?: ResourceBindingStatus;
}

export interface ManifestStatus {
  identifier: { ordinal: number; group: string; version: string; kind: string; namespace?: string; name: string };
  status?: Record<string, unknown>;
  health?: ResourceHealth;
}

export interface Work extends KubeObject {
  spec: {
    workload: { manifests: KubeObject[] };
    suspendDispatching?: boolean;
    preserveResourcesOnDeletion?: boolean;
  };
  status?: { conditions?: Condition[]; manifestStatuses?: ManifestStatus[] };
}

// Condition types and reasons, as Karmada names them.
export const CONDITION_SCHEDULED = 'Scheduled';
export const CONDITION_FULLY_APPLIED = 'FullyApplied';
export const CONDITION_APPLIED = 'Applied';
export const CONDITION_READY = 'Ready';
