// Names, reasons and messages of the cluster controller, as Karmada's cluster
// status controller spells them (pkg/controllers/status/cluster_status_controller.go),
// so `kubectl describe cluster` reads the same on Warren as on Karmada.
export const CONTROLLER_NAME = 'cluster-controller';

export const CONDITION_READY = 'Ready';

export const Reason = {
  ClusterReady: 'ClusterReady',
  ClusterNotReady: 'ClusterNotReady',
  ClusterNotReachable: 'ClusterNotReachable',
  /** The Secret is missing or holds no usable credential (Karmada: StatusCollectionFailed). */
  StatusCollectionFailed: 'StatusCollectionFailed',
  TaintClusterSucceed: 'TaintClusterSucceed',
} as const;

export const Message = {
  ClusterReady: 'cluster is healthy and ready to accept workloads',
  ClusterNotReady: 'cluster is reachable but health endpoint responded without ok',
  ClusterNotReachable: 'cluster is not reachable',
} as const;

// Karmada's defaults: --cluster-status-update-frequency 10s,
// --cluster-failure-threshold 30s, --cluster-success-threshold 30s.
export const DEFAULT_PROBE_INTERVAL_MS = 10_000;
export const DEFAULT_FAILURE_THRESHOLD_MS = 30_000;
export const DEFAULT_SUCCESS_THRESHOLD_MS = 30_000;
