import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMetricsRegistry } from '../../../src/observability/metrics-registry.ts';

describe('metrics registry', () => {
  it('returns the metric already registered under a name', () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    const a = registry.counter({ name: 'x_total', help: 'x', labelNames: ['tenant'] });
    assert.equal(registry.counter({ name: 'x_total', help: 'x', labelNames: ['tenant'] }), a);
  });

  it('gauges can be collected at scrape time; series of one label value can be removed', async () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    let depth = 3;
    registry.gauge({ name: 'queue_depth', help: 'queue depth', collect: (g) => g.set(depth) });
    const c = registry.counter({ name: 'req_total', help: 'requests', labelNames: ['tenant', 'code'] });
    const h = registry.histogram({ name: 'lat_seconds', help: 'latency', labelNames: ['tenant'], buckets: [0.1, 1] });
    c.inc({ tenant: 'a', code: '200' });
    c.inc({ tenant: 'a', code: '500' });
    c.inc({ tenant: 'b', code: '200' });
    h.observe({ tenant: 'a' }, 0.5);
    depth = 7;
    let text = (await registry.render()).body;
    assert.match(text, /^queue_depth 7$/m);
    assert.match(text, /^req_total\{tenant="a",code="500"\} 1$/m);
    await registry.removeSeries('tenant', 'a');
    text = (await registry.render()).body;
    assert.doesNotMatch(text, /tenant="a"/);
    assert.match(text, /^req_total\{tenant="b",code="200"\} 1$/m);
  });
});
