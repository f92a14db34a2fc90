// One Prometheus registry per Warren process, handed to every part that has
// metrics: the gateway registers its own here, and controllers (queue depth,
// reconcile latency, member health) register theirs through the same small API
// without importing the gateway. Registering a name twice returns the metric
// already there, so a controller restarted in process does not throw.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

export interface MetricSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

export interface GaugeSpec<L extends string> extends MetricSpec<L> {
  /** Sets the value at scrape time (queue depth, open connections). */
  collect?: (gauge: Gauge<L>) => void;
}

export interface MetricsRegistry {
  counter<L extends string>(spec: MetricSpec<L>): Counter<L>;
  gauge<L extends string>(spec: GaugeSpec<L>): Gauge<L>;
  histogram<L extends string>(spec: MetricSpec<L> & { buckets?: number[] }): Histogram<L>;
  /** The text exposition format, and its Content-Type. */
  render(): Promise<{ contentType: string; body: string }>;
  /** Every metric with a label `label` loses its series where that label is `value` (a tenant leaving the top N). */
  removeSeries(label: string, value: string): Promise<void>;
}

export interface MetricsRegistryOptions {
  /** Node process metrics (CPU, RSS, event-loop lag, GC) under process_ and nodejs_. Default true. */
  processMetrics?: boolean;
}

export function createMetricsRegistry(options: MetricsRegistryOptions = {}): MetricsRegistry {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const existing = <M>(name: string): M | undefined => registry.getSingleMetric(name) as M | undefined;
  return {
    counter: (spec) => existing(spec.name) ?? new Counter({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry] }),
    gauge(spec) {
      const found = existing<Gauge<(typeof spec.labelNames & string[])[number]>>(spec.name);
      if (found) return found as never;
      const { collect } = spec;
      return new Gauge({
        name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry],
        ...(collect ? { collect(this: Gauge) { collect(this as never); } } : {}),
      });
    },
    histogram: (spec) => existing(spec.name) ?? new Histogram({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry], ...(spec.buckets ? { buckets: spec.buckets } : {}) }),
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    async removeSeries(label, value) {
      for (const { name } of registry.getMetricsAsArray()) {
        const metric = registry.getSingleMetric(name);
        if (metric) await removeWhere(metric, label, value);
      }
    },
  };
}

// prom-client removes one exact label set at a time: the matching sets are read
// from the metric (a histogram's buckets differ only by `le`, which is not a label of ours).
async function removeWhere(metric: Metric, label: string, value: string): Promise<void> {
  const { values } = await metric.get();
  const seen = new Set<string>();
  for (const sample of values) {
    if (sample.labels[label] !== value) continue;
    const labels: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(sample.labels)) if (k !== 'le' && v !== undefined) labels[k] = v;
    const key = JSON.stringify(labels);
    if (seen.has(key)) continue;
    seen.add(key);
    (metric as unknown as { remove(labels: Record<string, string | number>): void }).remove(labels);
  }
}
