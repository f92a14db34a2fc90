// From a validated WarrenConfig to what `warren serve` starts with: where the
// upstream kubeconfig comes from, the listen address, and the leader-election
// options. Pure: the composition root passes env, hostname and pid.
import type { WarrenConfig } from './config-schema.ts';
import type { PlacementContract } from '../core/tenancy/pod-placement.ts';
import { buildInClusterKubeconfig, buildLeaderIdentity } from './in-cluster-kubeconfig.ts';

export interface ServeOptions {
  /** For createUpstream(). */
  upstreamKubeconfig: { path: string } | { yaml: string };
  host: string;
  port: number;
  externalUrl: string | undefined;
  servingNames: string[];
  auditAttribution: { upstreamUser: string } | undefined;
  upstreamTimeoutMs: number;
  /** The platform's placement contract for tenants whose spec.placement says nothing (ADR 0043). */
  placement: PlacementContract;
  /** For limitHeapGrowth() (src/cli/heap-growth.ts): 0 = V8's own factor. */
  heapGrowingPercent: number;
  /** startGateway's operational options, from the fairness, metrics and audit sections. */
  gateway: {
    fairness: { enabled: boolean; totalSeats: number; retryAfterSeconds: number; adaptive: WarrenConfig['fairness']['adaptive']; pacing: WarrenConfig['fairness']['pacing']; concurrentHandshakes: number; holdSpread: number; holdWhileQueueFull: boolean; defaults: WarrenConfig['fairness']['defaults']; tenants: WarrenConfig['fairness']['tenants'] };
    tenantMetrics: { mode: 'top' | 'none'; topN?: number };
    auditLogPath?: string;
    servingNames: string[];
  };
  /** Spread into startLeaderElection() with upstream and callbacks; undefined when disabled. */
  leaderElection: {
    identity: string;
    namespace: string;
    name: string;
    leaseDurationSeconds: number;
    renewDeadline: number;
    retryPeriod: number;
  } | undefined;
}

/** "HOST:PORT", "[::1]:PORT" or ":PORT" (already checked by the schema). */
function splitListen(listen: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen);
  return { host: m?.[1] ?? (m?.[2] || '0.0.0.0'), port: Number(m?.[3] ?? 6443) };
}

export function buildServeOptions(config: WarrenConfig, env: Record<string, string | undefined>, hostname: string, pid: number): ServeOptions {
  const le = config.leaderElection;
  return {
    upstreamKubeconfig: config.upstream.inCluster ? { yaml: buildInClusterKubeconfig(env) } : { path: config.upstream.kubeconfig },
    ...splitListen(config.listen),
    externalUrl: config.externalUrl || undefined,
    servingNames: config.servingNames,
    auditAttribution: config.upstream.auditImpersonate ? { upstreamUser: config.upstream.auditImpersonate } : undefined,
    upstreamTimeoutMs: config.upstream.timeoutSeconds * 1000,
    heapGrowingPercent: config.memory.heapGrowingPercent,
    placement: { nodeSelector: { ...config.placement.nodeSelector }, tolerations: [...config.placement.tolerations] },
    gateway: {
      fairness: { ...config.fairness },
      // metrics.enabled false or a limit of 0: no per-tenant label at all (everything counts as "other").
      tenantMetrics: config.metrics.enabled && config.metrics.tenantLabelLimit > 0 ? { mode: 'top', topN: config.metrics.tenantLabelLimit } : { mode: 'none' },
      ...(config.audit.logPath ? { auditLogPath: config.audit.logPath === '-' ? '/dev/stdout' : config.audit.logPath } : {}),
      servingNames: config.servingNames,
    },
    leaderElection: le.enabled ? {
      identity: buildLeaderIdentity(le.identity, env, hostname, pid),
      namespace: le.namespace,
      name: le.leaseName,
      leaseDurationSeconds: le.leaseDurationSeconds,
      renewDeadline: le.renewDeadlineSeconds,
      retryPeriod: le.retryPeriodSeconds,
    } : undefined,
  };
}
