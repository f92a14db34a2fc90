// deploy/monitoring: every Grafana panel's query names series Warren exports,
// with labels those series carry; the ServiceMonitor scrapes the Service's port.
// The exported set is read from the registries Warren's code builds (gateway
// and propagation metrics, driven once so every labelled series appears), not
// from a list kept by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createMetricsRegistry } from '../../../src/observability/metrics-registry.ts';
import { createGatewayMetrics } from '../../../src/gateway/observability/gateway-metrics.ts';
import { reconcileObserver, registerControllerMetrics } from '../../../src/controllers/propagation/propagation-metrics.ts';
import { REPO_ROOT } from '../../helpers/warren-process.ts';

interface Panel { title: string; targets: Array<{ expr: string }> }

/** Metric name → label names, from the text exposition of Warren's registries. */
async function exported(): Promise<Map<string, Set<string>>> {
  const registry = createMetricsRegistry({ processMetrics: false });
  const gateway = createGatewayMetrics(registry, { tenants: () => [{ id: 'acme01', name: 'acme' }], inFlight: () => ({ requests: 1, longRunning: 1 }), queued: () => 0 });
  gateway.request({ tenant: 'acme01', verb: 'list', resource: 'pods', code: 200, seconds: 0.01, longRunning: false });
  gateway.watchOpened('acme01');
  gateway.translationError('acme01', 'BadRequest');
  gateway.guardRefusal('acme01');
  gateway.quotaRefusal('acme01');
  gateway.rejected('acme01', 'queue-full');
  registerControllerMetrics(registry, { queueLength: () => 1, clusters: () => [{ name: 'm1', ready: true }], bindingCounts: () => ({ total: 1, fullyApplied: 1 }) });
  reconcileObserver(registry)('binding', 0.01, true);
  const out = new Map<string, Set<string>>();
  for (const line of (await registry.render()).body.split('\n')) {
    const m = /^([a-z_:][a-z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!m) continue;
    const labels = out.get(m[1]!) ?? new Set<string>();
    for (const pair of (m[2] ?? '').matchAll(/([a-z_]+)="/g)) labels.add(pair[1]!);
    out.set(m[1]!, labels);
  }
  return out;
}

describe('deploy/monitoring', () => {
  const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, 'deploy/monitoring/grafana-dashboard.json'), 'utf8')) as { panels: Panel[] };

  it('every panel has a query, and every query names only series Warren exports, by labels they carry', async () => {
    const series = await exported();
    assert.ok(dashboard.panels.length >= 8);
    for (const panel of dashboard.panels) {
      assert.ok(panel.targets.length > 0, panel.title);
      for (const { expr } of panel.targets) {
        const names = [...expr.matchAll(/\b(warren_[a-z0-9_]+)/g)].map((m) => m[1]!);
        assert.ok(names.length > 0, `${panel.title}: ${expr} names no Warren series`);
        const labels = new Set<string>(['tenant_id']); // made by label_replace to join warren_tenant_info
        for (const name of names) {
          assert.ok(series.has(name), `${panel.title}: ${name} is not exported (exported: ${[...series.keys()].join(', ')})`);
          for (const l of series.get(name)!) labels.add(l);
        }
        for (const group of expr.matchAll(/\b(?:by|on|group_left)\s*\(([^)]*)\)/g)) {
          for (const label of group[1]!.split(',').map((s) => s.trim()).filter(Boolean)) assert.ok(labels.has(label), `${panel.title}: label ${label} is on none of ${names.join(', ')}`);
        }
        for (const matcher of expr.matchAll(/\{([a-z_]+)=~?"/g)) assert.ok(labels.has(matcher[1]!), `${panel.title}: matcher on ${matcher[1]!}`);
      }
    }
  });

  it('the dashboard shows tenant names through warren_tenant_info', () => {
    assert.ok(dashboard.panels.some((p) => p.targets.some((t) => t.expr.includes('group_left (tenant) warren_tenant_info'))));
  });

  it('the ServiceMonitor scrapes /metrics on the Service\'s https port, with a credential (metrics are for platform admins)', () => {
    const monitor = parse(readFileSync(join(REPO_ROOT, 'deploy/monitoring/servicemonitor.yaml'), 'utf8')) as { kind: string; spec: { selector: { matchLabels: Record<string, string> }; endpoints: Array<Record<string, unknown>> } };
    const service = parse(readFileSync(join(REPO_ROOT, 'deploy/service.yaml'), 'utf8')) as { metadata: { labels: Record<string, string> }; spec: { ports: Array<{ name: string }> } };
    assert.equal(monitor.kind, 'ServiceMonitor');
    for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels)) assert.equal(service.metadata.labels[k], v);
    const endpoint = monitor.spec.endpoints[0]!;
    assert.ok(service.spec.ports.some((p) => p.name === endpoint.port));
    assert.deepEqual([endpoint.scheme, endpoint.path], ['https', '/metrics']);
    assert.ok(endpoint.bearerTokenSecret, 'a token: /metrics refuses anonymous scrapers');
  });
});
