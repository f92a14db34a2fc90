// The gateway's metrics, named and shaped after kube-apiserver's
// (apiserver_request_total, apiserver_request_duration_seconds,
// apiserver_longrunning_requests) with a tenant label bounded by TenantLabeler.
// As in kube, the duration histogram has no code label and leaves out
// long-running requests (a watch's duration is its timeout, not a latency).
import type { MetricsRegistry } from '../../observability/metrics-registry.ts';
import { BoundedValues, TenantLabeler, type TenantLabelOptions } from './tenant-labels.ts';

export interface RequestSample {
  tenant: string | undefined;
  /** The Kubernetes request verb (get, list, watch, create, update, patch, delete, deletecollection, connect), or the lower-case HTTP method for non-resource paths (metric-verb.ts). */
  verb: string;
  resource: string;
  code: number;
  seconds: number;
  longRunning: boolean;
}

export interface GatewayMetrics {
  request(sample: RequestSample): void;
  watchOpened(tenant: string): () => void;
  translationError(tenant: string, reason: string): void;
  guardRefusal(tenant: string): void;
  quotaRefusal(tenant: string): void;
  rejected(tenant: string, reason: string): void;
  /** Closes a top-N window (called on an interval by the gateway). */
  refreshTenantLabels(): void;
}

export interface GatewayMetricsOptions extends TenantLabelOptions {
  /** Distinct resource label values before the rest count as "other". Default 200. */
  maxResources?: number;
  /** Gauges read at scrape time. */
  inFlight?: () => { requests: number; longRunning: number };
  queued?: () => number;
  /** The tenants there are, for warren_tenant_info (id → name). */
  tenants?: () => ReadonlyArray<{ id: string; name: string }>;
}

// Fewer buckets than kube's 40: they multiply with every tenant label.
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const NONE = 'none';

export function createGatewayMetrics(registry: MetricsRegistry, options: GatewayMetricsOptions = {}): GatewayMetrics {
  const labels = new TenantLabeler(options, (tenant) => void registry.removeSeries('tenant', tenant));
  const resources = new BoundedValues(options.maxResources ?? 200);
  const requests = registry.counter({ name: 'warren_gateway_requests_total', help: 'Tenant requests by tenant, verb, resource and HTTP code.', labelNames: ['tenant', 'verb', 'resource', 'code'] });
  const duration = registry.histogram({ name: 'warren_gateway_request_duration_seconds', help: 'Latency of tenant requests that are not long-running, by tenant, verb and resource.', labelNames: ['tenant', 'verb', 'resource'], buckets: BUCKETS });
  // Counted here and written at scrape time, so a tenant leaving the top N moves its open watches to "other".
  const openWatches = new Map<string, number>();
  registry.gauge({
    name: 'warren_gateway_open_watches', help: 'Watches open through the gateway, by tenant.', labelNames: ['tenant'],
    collect: (g) => {
      g.reset();
      const byLabel = new Map<string, number>();
      for (const [tenant, n] of openWatches) byLabel.set(labels.peek(tenant), (byLabel.get(labels.peek(tenant)) ?? 0) + n);
      for (const [tenant, n] of byLabel) g.set({ tenant }, n);
    },
  });
  const translation = registry.counter({ name: 'warren_gateway_translation_errors_total', help: 'Tenant requests the translator refused, by tenant and Status reason.', labelNames: ['tenant', 'reason'] });
  const guard = registry.counter({ name: 'warren_gateway_isolation_guard_refusals_total', help: 'Upstream requests refused by the isolation guard (each one is a translator bug).', labelNames: ['tenant'] });
  const quota = registry.counter({ name: 'warren_gateway_quota_refusals_total', help: 'Creations refused by the tenant-wide quota.', labelNames: ['tenant'] });
  const rejected = registry.counter({ name: 'warren_gateway_rejected_requests_total', help: 'Requests refused with 429 by per-tenant fairness, by reason (queue-full, queue-timeout, upgrades, long-running, connections).', labelNames: ['tenant', 'reason'] });
  registry.gauge({
    name: 'warren_gateway_inflight_requests', help: 'Requests being served, by kind (requests, long-running).', labelNames: ['kind'],
    collect: (g) => {
      const now = options.inFlight?.() ?? { requests: 0, longRunning: 0 };
      g.set({ kind: 'requests' }, now.requests);
      g.set({ kind: 'long-running' }, now.longRunning);
    },
  });
  // Metrics label tenants by their random id; this series carries the name beside it, so a dashboard can
  // show names (label_replace + group_left). Only tenants that have their own label value get one: the
  // series stay as bounded as the top N, and "other" has no name to join.
  registry.gauge({
    name: 'warren_tenant_info', help: 'One series per tenant with its own metric label: tenant_id (the label on every other metric) and tenant (its name).', labelNames: ['tenant_id', 'tenant'],
    collect: (g) => {
      g.reset();
      for (const t of options.tenants?.() ?? []) if (labels.peek(t.id) === t.id) g.set({ tenant_id: t.id, tenant: t.name }, 1);
    },
  });
  registry.gauge({ name: 'warren_gateway_queued_requests', help: 'Requests waiting for a fairness seat.', collect: (g) => g.set(options.queued?.() ?? 0) });
  return {
    request(s) {
      const tenant = s.tenant === undefined ? NONE : labels.labelFor(s.tenant);
      const resource = s.resource ? resources.valueFor(s.resource) : '';
      requests.inc({ tenant, verb: s.verb, resource, code: String(s.code) });
      if (!s.longRunning) duration.observe({ tenant, verb: s.verb, resource }, s.seconds);
    },
    watchOpened(tenant) {
      openWatches.set(tenant, (openWatches.get(tenant) ?? 0) + 1);
      let closed = false;
      return () => {
        if (closed) return;
        closed = true;
        const left = (openWatches.get(tenant) ?? 1) - 1;
        if (left > 0) openWatches.set(tenant, left);
        else openWatches.delete(tenant);
      };
    },
    translationError: (tenant, reason) => translation.inc({ tenant: labels.peek(tenant), reason }),
    guardRefusal: (tenant) => guard.inc({ tenant: labels.peek(tenant) }),
    quotaRefusal: (tenant) => quota.inc({ tenant: labels.peek(tenant) }),
    rejected: (tenant, reason) => rejected.inc({ tenant: labels.peek(tenant), reason }),
    refreshTenantLabels: () => labels.refresh(),
  };
}
