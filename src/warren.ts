// Warren's runtime, composed once for `serve` (a real upstream) and `up`
// (embedded upstream): the gateway, and the controllers that run beside it.
import type { PlacementContract } from './core/tenancy/pod-placement.ts';
import type { Upstream } from './kube/upstream.ts';
import { fileURLToPath } from 'node:url';
import { startGateway, type GatewayOptions, type RunningGateway } from './gateway/server.ts';
import { createMetricsRegistry, type MetricsRegistry } from './observability/metrics-registry.ts';
import { reconcileObserver, registerControllerMetrics } from './controllers/propagation/propagation-metrics.ts';
import { ensureCrds, readCrdFiles } from './kube/ensure-crds.ts';
import { startOnboardingController } from './controllers/onboarding/start-onboarding-controller.ts';
import { startClusterController } from './controllers/clusters/start-cluster-controller.ts';
import { startPropagation } from './controllers/propagation/start-propagation.ts';
import type { EngineSettings } from './controllers/propagation/engine-context.ts';
import { memberUpstream } from './kube/member-upstream.ts';
import { startLeaderElection, type LeaderElectionOptions, type LeaderElector } from './kube/leader-election.ts';
import { namedCheck } from './gateway/health/health-check.ts';

export interface WarrenOptions {
  upstream: Upstream;
  host: string;
  port: number;
  /** The URL tenants use to reach the gateway, written into their kubeconfigs (default: the listen address). */
  externalUrl?: string | undefined;
  /** Upstream audit attribution (self-impersonation with tenant extras); off by default. */
  auditAttribution?: { upstreamUser: string };
  /** More that must hold before the gateway's /readyz answers 200: the named check "tenants-applied" (`warren up` applying tenants/). */
  readiness?: () => boolean;
  log: (line: string) => void;
  /** How often member clusters' /readyz is probed (default 10 s). */
  clusterProbeIntervalMs?: number;
  /** Failure threshold of the member health checks (default: the cluster controller's). */
  clusterFailureThresholdMs?: number;
  /** Success threshold of the member health checks: how long a recovered member must answer before it is Ready again. */
  clusterSuccessThresholdMs?: number;
  /** The platform's placement contract for tenants whose spec.placement says nothing (ADR 0043; default SAFE_PLACEMENT). */
  placement?: PlacementContract;
  /** Propagation engine tuning (failover tolerations, eviction timeout). */
  propagation?: Partial<EngineSettings>;
  /** Gateway operations: fairness, shutdown deadline, per-tenant metric labels, audit log, serving names. */
  gateway?: Pick<GatewayOptions, 'fairness' | 'shutdownDeadlineMs' | 'tenantMetrics' | 'auditLogPath' | 'auditTenantDir' | 'servingNames'>;
  /** Run the controllers only while holding the Lease (several replicas against one upstream). */
  leaderElection?: Omit<LeaderElectionOptions, 'upstream' | 'log' | 'onStartedLeading' | 'onStoppedLeading'>;
}

export interface RunningWarren {
  gateway: RunningGateway;
  stop(): Promise<void>;
}

/** crds/ at the top of the repository. */
export const CRDS_DIR = fileURLToPath(new URL('../crds/', import.meta.url));

export async function startWarren(options: WarrenOptions): Promise<RunningWarren> {
  await ensureCrds(options.upstream, readCrdFiles(CRDS_DIR));
  // One registry for the process: the gateway's metrics and the controllers' (queue depth, member health).
  const metrics = createMetricsRegistry();
  // A replica that leads must have its controllers' informers synced before it says ready;
  // a standby runs none, so it has nothing to wait for.
  let controllersSynced = false;
  let running: RunningControllers | undefined;
  const { readiness } = options;
  const gateway = await startGateway({
    upstream: options.upstream, host: options.host, port: options.port, log: options.log, metrics,
    ...options.gateway,
    ...(options.placement ? { placement: options.placement } : {}),
    readinessChecks: [
      namedCheck('controllers-synced', () => (running && !controllersSynced ? 'controllers not synced' : undefined)),
      ...(readiness ? [namedCheck('tenants-applied', () => (readiness() ? undefined : 'tenants not applied yet'))] : []),
    ],
    ...(options.auditAttribution ? { auditAttribution: options.auditAttribution } : {}),
  });
  // One series per kind the engine cannot watch (ADR 0024), read from whichever controllers run now.
  metrics.gauge({
    name: 'warren_upstream_unserved_kinds',
    help: 'Template kinds the propagation engine skips because the upstream does not serve them (1 per kind).',
    labelNames: ['resource'] as const,
    collect: (g) => {
      g.reset();
      for (const resource of running?.unservedKinds() ?? []) g.set({ resource }, 1);
    },
  });
  const controllers = (): RunningControllers => startControllers(options, gateway, metrics);
  let elector: LeaderElector | undefined;
  if (options.leaderElection) {
    // Every replica serves tenants; only the leader runs the controllers, so two
    // replicas never reconcile the same Tenant or apply the same Work at once.
    elector = startLeaderElection({
      upstream: options.upstream, log: options.log, ...options.leaderElection,
      onStartedLeading: async () => { controllersSynced = false; running = controllers(); await running.synced(); controllersSynced = true; },
      onStoppedLeading: () => { running?.stop(); running = undefined; controllersSynced = false; },
    });
  } else {
    running = controllers();
    await running.synced();
    controllersSynced = true;
  }
  return {
    gateway,
    async stop() {
      await elector?.stop();
      running?.stop();
      await gateway.stop();
      options.upstream.close();
    },
  };
}

interface RunningControllers {
  synced(): Promise<void>;
  unservedKinds(): string[];
  stop(): void;
}

function startControllers(options: WarrenOptions, gateway: RunningGateway, metrics: MetricsRegistry): RunningControllers {
  const propagation = startPropagation({
    upstream: options.upstream, log: options.log,
    connect: (cluster, secret) => memberUpstream(cluster, secret ?? {}),
    observe: reconcileObserver(metrics),
    ...(options.propagation || options.placement ? { settings: { ...options.propagation, ...(options.placement ? { placement: options.placement } : {}) } } : {}),
    // Failover trusts a Cluster's taints once this process's cluster controller has confirmed them (issue 14 item 10).
    clusterHealthConfirmedAt: (name) => clusters.healthConfirmedAt(name),
  });
  const onboarding = startOnboardingController({
    upstream: options.upstream,
    gatewayUrl: options.externalUrl ?? gateway.url,
    gatewayCaPem: gateway.servingCaPem,
    log: options.log,
    // Members are cleaned before the Tenant is let go: a deletion leaves nothing anywhere.
    onTenantDeleted: (id) => propagation.purgeTenant(id),
  });
  const clusters = startClusterController({
    upstream: options.upstream, log: options.log,
    ...(options.clusterProbeIntervalMs !== undefined ? { probeIntervalMs: options.clusterProbeIntervalMs } : {}),
    ...(options.clusterFailureThresholdMs !== undefined ? { failureThresholdMs: options.clusterFailureThresholdMs } : {}),
    ...(options.clusterSuccessThresholdMs !== undefined ? { successThresholdMs: options.clusterSuccessThresholdMs } : {}),
    // NoExecute taints as soon as a member is not ready: how long a workload stays
    // is then the policy's toleration (300 s unless it says otherwise), as in Karmada.
    noExecuteAfterMs: 0,
  });
  registerControllerMetrics(metrics, propagation);
  return {
    synced: async () => { await Promise.all([onboarding.synced(), clusters.synced(), propagation.synced()]); },
    unservedKinds: () => propagation.unservedKinds(),
    stop() {
      onboarding.stop();
      clusters.stop();
      propagation.stop();
    },
  };
}
