import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMetricsRegistry } from '../../../../src/observability/metrics-registry.ts';
import { reconcileObserver, registerControllerMetrics } from '../../../../src/controllers/propagation/propagation-metrics.ts';

describe('propagation metrics', () => {
  it('exposes queue depth, member health, bindings by state and reconcile latency, with no tenant label', async () => {
    const metrics = createMetricsRegistry({ processMetrics: false });
    let clusters = [{ name: 'member1', ready: true }, { name: 'member2', ready: false }];
    registerControllerMetrics(metrics, { queueLength: () => 7, clusters: () => clusters, bindingCounts: () => ({ total: 5, fullyApplied: 3 }) });
    reconcileObserver(metrics)('binding', 0.02, true);
    let { body } = await metrics.render();
    assert.match(body, /^warren_propagation_queue_depth 7$/m);
    assert.match(body, /^warren_member_cluster_ready\{cluster="member1"\} 1$/m);
    assert.match(body, /^warren_member_cluster_ready\{cluster="member2"\} 0$/m);
    assert.match(body, /^warren_propagation_bindings\{fully_applied="false"\} 2$/m);
    assert.match(body, /^warren_propagation_reconcile_duration_seconds_count\{kind="binding",result="success"\} 1$/m);
    assert.doesNotMatch(body, /tenant=/);
    // A removed member leaves no stale series.
    clusters = [{ name: 'member1', ready: true }];
    ({ body } = await metrics.render());
    assert.doesNotMatch(body, /cluster="member2"/);
  });
});
