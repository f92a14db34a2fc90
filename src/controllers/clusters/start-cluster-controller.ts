// The cluster controller, composed: an informer on Karmada Clusters in the host
// feeding the generic runtime; each key is probed again every probe interval
// (requeueAfter), so health is kept without a timer per member. The host is
// reached through `upstream`; members through their own credentials only.
import type { Upstream } from '../../kube/upstream.ts';
import type { Cluster } from '../../core/propagation/karmada-types.ts';
import { startController } from '../runtime/controller.ts';
import { createEventRecorder } from '../runtime/event-recorder.ts';
import { CLUSTERS_PATH, upstreamHostClient } from './host-client.ts';
import { createMemberClients, type MemberUpstreamFactory } from './member-clients.ts';
import { probeHealth, readKubernetesVersion, readResourceSummary } from './probe-member.ts';
import { reconcileCluster, type ClusterMemory } from './reconcile-cluster.ts';
import { CONTROLLER_NAME, DEFAULT_FAILURE_THRESHOLD_MS, DEFAULT_PROBE_INTERVAL_MS, DEFAULT_SUCCESS_THRESHOLD_MS } from './reasons.ts';

export interface ClusterControllerOptions {
  upstream: Upstream;
  log?: (line: string) => void;
  /** How often each member's /readyz is probed (Karmada's --cluster-status-update-frequency, default 10 s). */
  probeIntervalMs?: number;
  /** Karmada's --cluster-failure-threshold (default 30 s). */
  failureThresholdMs?: number;
  /** Karmada's --cluster-success-threshold (default 30 s). */
  successThresholdMs?: number;
  /** Add NoExecute health taints after Ready has been lost this long (Karmada's Failover eviction timeout); off by default, as in current Karmada. */
  noExecuteAfterMs?: number;
  /** Deadline of one request to a member (default: the probe interval, at most 10 s). */
  memberTimeoutMs?: number;
  now?: () => Date;
  /** Builds a member's Upstream (tests); default memberUpstream(). */
  memberFactory?: MemberUpstreamFactory;
}

export interface RunningClusterController {
  /** Resolves once the Cluster informer has listed (probes start then). */
  synced(): Promise<void>;
  /** The resourceVersion at which this controller first wrote or confirmed a cluster's health, once it has (reconcile-cluster.ts). */
  healthConfirmedAt(name: string): string | undefined;
  stop(): void;
}

export function startClusterController(options: ClusterControllerOptions): RunningClusterController {
  const { upstream } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const probeIntervalMs = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
  const host = upstreamHostClient(upstream);
  const members = createMemberClients(host, {
    timeoutMs: options.memberTimeoutMs ?? Math.min(Math.max(probeIntervalMs, 1_000), 10_000),
    ...(options.memberFactory ? { factory: options.memberFactory } : {}),
  });
  const recorder = createEventRecorder({ upstream, component: CONTROLLER_NAME, log, now });
  const memory = new Map<string, ClusterMemory>();
  const controller = startController<Cluster>({
    name: CONTROLLER_NAME,
    upstream,
    listPath: CLUSTERS_PATH,
    log,
    workers: 4,
    reconcile: (key) => reconcileCluster({
      host,
      members,
      probes: { health: probeHealth, version: readKubernetesVersion, summary: (m) => readResourceSummary(m) },
      memory,
      now,
      probeIntervalMs,
      successThresholdMs: options.successThresholdMs ?? DEFAULT_SUCCESS_THRESHOLD_MS,
      failureThresholdMs: options.failureThresholdMs ?? DEFAULT_FAILURE_THRESHOLD_MS,
      noExecuteAfterMs: options.noExecuteAfterMs,
      record: (cluster, type, reason, message) => recorder.record(cluster, type, reason, message),
    }, key),
  });
  return {
    synced: () => controller.synced(),
    healthConfirmedAt: (name) => memory.get(name)?.confirmedAt,
    stop() {
      controller.stop();
      members.closeAll();
    },
  };
}
