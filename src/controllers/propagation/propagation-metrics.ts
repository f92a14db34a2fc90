// The engine's metrics in the process registry: queue depth, reconcile latency
// by kind and outcome, member health, and bindings by FullyApplied. Labels are
// bounded: kinds and clusters, never tenants (the queue is per tenant, the
// figures are not).
import type { MetricsRegistry } from '../../observability/metrics-registry.ts';

export interface PropagationFigures {
  queueLength(): number;
  clusters(): Array<{ name: string; ready: boolean }>;
  bindingCounts(): { total: number; fullyApplied: number };
}

export function reconcileObserver(metrics: MetricsRegistry): (kind: 'template' | 'binding', seconds: number, ok: boolean) => void {
  const histogram = metrics.histogram({
    name: 'warren_propagation_reconcile_duration_seconds',
    help: 'Duration of propagation reconciles, by key kind (template: detector and scheduler; binding: Works and member apply) and result.',
    labelNames: ['kind', 'result'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  return (kind, seconds, ok) => histogram.observe({ kind, result: ok ? 'success' : 'error' }, seconds);
}

export function registerControllerMetrics(metrics: MetricsRegistry, engine: PropagationFigures): void {
  metrics.gauge({
    name: 'warren_propagation_queue_depth',
    help: 'Propagation keys waiting for a worker (all tenants).',
    collect: (g) => g.set(engine.queueLength()),
  });
  metrics.gauge({
    name: 'warren_member_cluster_ready',
    help: 'Whether a member cluster is Ready (1) or not (0), as the cluster controller last saw it.',
    labelNames: ['cluster'] as const,
    collect: (g) => {
      g.reset();
      for (const c of engine.clusters()) g.set({ cluster: c.name }, c.ready ? 1 : 0);
    },
  });
  metrics.gauge({
    name: 'warren_propagation_bindings',
    help: 'ResourceBindings, by whether every Work is applied.',
    labelNames: ['fully_applied'] as const,
    collect: (g) => {
      const { total, fullyApplied } = engine.bindingCounts();
      g.set({ fully_applied: 'true' }, fullyApplied);
      g.set({ fully_applied: 'false' }, total - fullyApplied);
    },
  });
}
