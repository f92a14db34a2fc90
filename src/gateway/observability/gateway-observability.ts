// The gateway's metrics and audit, wired once for server.ts: the registry
// (shared with controllers when the composition root passes one), the request
// observer, and wrappers that count guard and quota refusals where they happen.
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import { toApiError } from '../../core/api-error.ts';
import { createMetricsRegistry, type MetricsRegistry } from '../../observability/metrics-registry.ts';
import type { SecurityLog } from '../security-log.ts';
import type { TenantInfo } from '../tenant-directory.ts';
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

export type CheckQuota = (tenant: TenantInfo, info: RequestInfo, fwd: ForwardedRequest) => Promise<void>;

export interface GatewayObservability {
  registry: MetricsRegistry;
  metrics: GatewayMetrics;
  observer: RequestObserver;
  /** The security log, with each guard refusal counted too. */
  observeSecurity(log: SecurityLog): SecurityLog;
  /** The quota check, with each refusal counted. */
  observeQuota(check: CheckQuota): CheckQuota;
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
    observeQuota: (check) => async (tenant, info, fwd) => {
      try {
        await check(tenant, info, fwd);
      } catch (err) {
        if (toApiError(err).reason === 'Forbidden') metrics.quotaRefusal(tenant.id);
        throw err;
      }
    },
    async stop() {
      clearInterval(window);
      await audit?.close();
    },
  };
}
