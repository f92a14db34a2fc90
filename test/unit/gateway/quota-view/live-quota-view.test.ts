// The live quota view under a steady stream of counts (issue 18): the view's status
// is written at most once per minIntervalMs, not once per debounce, and the last
// count still reaches it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLiveQuotaView } from '../../../../src/gateway/quota-view/live-quota-view.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import type { TenantDirectory, TenantInfo } from '../../../../src/tenants/tenant-directory.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { countKeyOf } from '../../../../src/core/tenancy/quota/quota-view.ts';
import { eventually } from '../../../helpers/poll.ts';

const TENANT = 'abc123';
const CM_KEY = countKeyOf({ group: '', resource: 'configmaps' });

function fakeUpstream(): { upstream: Upstream; puts: () => number; used: () => string | undefined } {
  let view: KubeObject & { spec: { hard: Record<string, string> }; status?: { used?: Record<string, string> } } = {
    apiVersion: 'v1', kind: 'ResourceQuota',
    metadata: { name: 'tenant-quota', namespace: `${TENANT}-wt`, labels: { 'warren.dev/tenant': TENANT } },
    spec: { hard: { [CM_KEY]: '1000' } },
  };
  let puts = 0;
  const request = async <T>(method: string, path: string, body?: unknown): Promise<UpstreamResponse<T>> => {
    if (method === 'PUT') {
      puts++;
      view = body as typeof view;
      return { status: 200, headers: {}, body: view as T };
    }
    if (path.startsWith('/api/v1/resourcequotas')) return { status: 200, headers: {}, body: { items: [view] } as T };
    return { status: 200, headers: {}, body: { items: [] } as T };
  };
  const upstream = { server: 'https://127.0.0.1:1', requestOptions: () => ({}), request, stream: () => Promise.reject(new Error('no')), close: () => undefined } as unknown as Upstream;
  return { upstream, puts: () => puts, used: () => view.status?.used?.[CM_KEY] };
}

function directory(): TenantDirectory {
  const tenant = { id: TENANT, name: 'writer', quota: { objectsPerResource: 1000 } } as unknown as TenantInfo;
  return { byId: (id: string) => (id === TENANT ? tenant : undefined), byName: () => tenant, all: () => [tenant] } as unknown as TenantDirectory;
}

test('a steady stream of counts writes the view at most once per minIntervalMs, and the last count lands', async () => {
  const fake = fakeUpstream();
  const minIntervalMs = 300;
  const view = createLiveQuotaView({ upstream: fake.upstream, tenants: directory(), debounceMs: 10, minIntervalMs, resyncMs: 0 });
  try {
    const started = Date.now();
    let count = 0;
    // A create committed every 5 ms for about 1.5 s: the debounce alone would write ~100 times.
    while (Date.now() - started < 1_500) {
      view.onCount(TENANT, '/configmaps', ++count);
      await new Promise((r) => setTimeout(r, 5));
    }
    const elapsed = Date.now() - started;
    await eventually(async () => fake.used() === String(count), `the view to show ${count}`, { timeoutMs: 10_000, intervalMs: 20 });
    // One write per interval over the burst, plus the first (after the debounce) and the trailing one.
    const bound = Math.floor((Date.now() - started) / minIntervalMs) + 2;
    assert.ok(fake.puts() >= 2, `the view was written during the burst (${fake.puts()} writes)`);
    assert.ok(fake.puts() <= bound, `${fake.puts()} writes over ${elapsed} ms of news, at most ${bound} allowed`);
  } finally {
    view.stop();
  }
});

test('the first news is written after the debounce, not after the interval', async () => {
  const fake = fakeUpstream();
  const view = createLiveQuotaView({ upstream: fake.upstream, tenants: directory(), debounceMs: 10, minIntervalMs: 120_000, resyncMs: 0 });
  try {
    // The first resync (at the debounce) reads the counts upstream (none) and writes them:
    // well before the 120 s interval, since nothing was written before.
    await eventually(async () => fake.used() === '0', 'the view to show 0', { timeoutMs: 60_000, intervalMs: 20 });
    assert.equal(fake.puts(), 1);
    // News right after that write waits for the interval.
    view.onCount(TENANT, '/configmaps', 7);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(fake.used(), '0');
  } finally {
    view.stop();
  }
});
