// warren_tenant_info{tenant_id,tenant}: names beside ids, only for tenants with
// their own label value, so it is as bounded as the per-tenant series.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMetricsRegistry } from '../../../../src/observability/metrics-registry.ts';
import { createGatewayMetrics } from '../../../../src/gateway/observability/gateway-metrics.ts';

const TENANTS = [{ id: 'acme01', name: 'acme' }, { id: 'globx1', name: 'globex' }, { id: 'quiet1', name: 'quiet' }];

function series(text: string, name: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${name}{`)).sort();
}

describe('warren_tenant_info', () => {
  it('one series per labelled tenant, joining its id to its name; "other" gets none', async () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    const metrics = createGatewayMetrics(registry, { topN: 2, tenants: () => TENANTS });
    for (const tenant of ['acme01', 'globx1', 'quiet1']) metrics.request({ tenant, verb: 'list', resource: 'pods', code: 200, seconds: 0.01, longRunning: false });
    const { body } = await registry.render();
    assert.deepEqual(series(body, 'warren_tenant_info'), [
      'warren_tenant_info{tenant_id="acme01",tenant="acme"} 1',
      'warren_tenant_info{tenant_id="globx1",tenant="globex"} 1',
    ]);
    assert.deepEqual(series(body, 'warren_gateway_requests_total'), [
      'warren_gateway_requests_total{tenant="acme01",verb="list",resource="pods",code="200"} 1',
      'warren_gateway_requests_total{tenant="globx1",verb="list",resource="pods",code="200"} 1',
      'warren_gateway_requests_total{tenant="other",verb="list",resource="pods",code="200"} 1',
    ]);
  });

  it('a tenant that leaves the top N, or is deleted, loses its info series', async () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    let tenants = TENANTS;
    const metrics = createGatewayMetrics(registry, { topN: 1, tenants: () => tenants });
    metrics.request({ tenant: 'acme01', verb: 'get', resource: 'pods', code: 200, seconds: 0.01, longRunning: false });
    assert.equal(series((await registry.render()).body, 'warren_tenant_info').length, 1);
    metrics.request({ tenant: 'globx1', verb: 'get', resource: 'pods', code: 200, seconds: 0.01, longRunning: false });
    metrics.request({ tenant: 'globx1', verb: 'get', resource: 'pods', code: 200, seconds: 0.01, longRunning: false });
    metrics.refreshTenantLabels();
    assert.deepEqual(series((await registry.render()).body, 'warren_tenant_info'), ['warren_tenant_info{tenant_id="globx1",tenant="globex"} 1']);
    tenants = TENANTS.filter((t) => t.id !== 'globx1');
    assert.deepEqual(series((await registry.render()).body, 'warren_tenant_info'), []);
  });
});
