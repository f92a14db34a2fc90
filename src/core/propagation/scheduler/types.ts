// The scheduler's input and output, and the failure shape every phase returns.
import type { Cluster, Placement, ReplicaRequirements, TargetCluster } from '../karmada-types.ts';

export interface ScheduleInput {
  placement: Placement;
  /** Desired replicas; 0 for non-workloads (ConfigMap, Service, ...). */
  replicas: number;
  replicaRequirements?: ReplicaRequirements;
  /** Every cluster the tenant may use. */
  clusters: Cluster[];
  /** The binding's current spec.clusters. */
  previous?: TargetCluster[];
  /** The binding's status.schedulerObservingAffinityName. */
  previousAffinityName?: string;
  /** Steady (default) keeps previous assignments on rescale; Fresh recomputes. */
  mode?: 'Steady' | 'Fresh';
  /**
   * Clusters the tenant may use that are not candidates (being evicted by failover), with why:
   * they still count in Karmada's "0/N clusters are available", so a failure never says 0/0
   * while the tenant has clusters.
   */
  excluded?: ReadonlyMap<string, string>;
}

/**
 * Karmada's Scheduled-condition reasons for a failure: NoClusterFit when the filters left
 * nothing (framework.FitError), Unschedulable when clusters lack capacity
 * (framework.UnschedulableError), SchedulerError for everything else.
 */
export type ScheduleFailureReason = 'NoClusterFit' | 'Unschedulable' | 'SchedulerError';

export interface ScheduleFailure {
  ok: false;
  reason: ScheduleFailureReason;
  message: string;
}

export type ScheduleResult =
  | { ok: true; clusters: TargetCluster[]; affinityName?: string }
  | ScheduleFailure;

export type Step<T> = { ok: true; value: T } | ScheduleFailure;

export function fail(reason: ScheduleFailureReason, message: string): ScheduleFailure {
  return { ok: false, reason, message };
}

/** A feasible cluster with what selection and assignment look at. */
export interface ClusterDetail {
  name: string;
  cluster: Cluster;
  /** 100 when the cluster already holds the binding (ClusterLocality), else 0. */
  score: number;
  /** Estimated available replicas plus the replicas it already holds. */
  available: number;
}
