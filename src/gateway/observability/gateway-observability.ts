// The gateway's metrics and audit, wired once for server.ts: the registry
// (shared with controllers when the composition root passes one), the request
// observer, and a wrapper that counts guard refusals where they happen (quota
// refusals are counted by the admitters, through metrics.quotaRefusal).
import { createMetricsRegistry, type MetricsRegistry } from '../../observability/metrics-registry.ts';
import type { SecurityLog } from '../security-log.ts';
import { createAuditLog, type AuditLogOptions } from './audit-log.ts';
import { createGatewayMetrics, type GatewayMetrics, type GatewayMetricsOptions } from './gateway-metrics.ts';
import { createRequestObserver, type RequestObserver } from './request-observer.ts';
import type { TenantLabelOptions } from './tenant-labels.ts';

export interface TenantMetricsOptions extends TenantLabelOptions {
  /** How often the top N is recomputed from the traffic since the last time (default 5 min). */
  windowMs?: number;
}

export interface GatewayObservabilityOptions extends AuditLogOptions {
  metrics?: MetricsRegistry;
  tenantMetrics?: TenantMetricsOptions;
  inFlight?: GatewayMetricsOptions['inFlight'];
  queued?: GatewayMetricsOptions['queued'];
  tenants?: GatewayMetricsOptions['tenants'];
}

export interface GatewayObservability {
  registry: MetricsRegistry;
  metrics: GatewayMetrics;
  observer: RequestObserver;
  /** The security log, with each guard refusal counted too. */
  observeSecurity(log: SecurityLog): SecurityLog;
  stop(): Promise<void>;
}

export function createGatewayObservability(options: GatewayObservabilityOptions = {}): GatewayObservability {
  const registry = options.metrics ?? createMetricsRegistry();
  const metrics = createGatewayMetrics(registry, {
    ...options.tenantMetrics,
    ...(options.inFlight ? { inFlight: options.inFlight } : {}),
    ...(options.queued ? { queued: options.queued } : {}),
    ...(options.tenants ? { tenants: options.tenants } : {}),
  });
  const window = setInterval(() => metrics.refreshTenantLabels(), options.tenantMetrics?.windowMs ?? 300_000);
  window.unref();
  const audit = createAuditLog(options);
  return {
    registry,
    metrics,
    observer: createRequestObserver({ metrics, audit }),
    observeSecurity: (log) => ({
      guardRefusal(event) {
        log.guardRefusal(event);
        metrics.guardRefusal(event.tenant);
      },
      count: () => log.count(),
    }),
    async stop() {
      clearInterval(window);
      await audit?.close();
    },
  };
}
