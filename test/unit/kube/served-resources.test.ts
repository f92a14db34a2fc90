import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Upstream, UpstreamResponse } from '../../../src/kube/upstream.ts';
import { checkServed, watchServedResources, type ServedResource } from '../../../src/kube/served-resources.ts';
import { eventually } from '../../helpers/poll.ts';

/** A discovery-only upstream: path → status and resource names (or a thrown error). */
function fakeDiscovery(docs: Map<string, { status: number; names?: string[] } | Error>): Upstream & { calls: string[] } {
  const calls: string[] = [];
  return {
    server: 'https://fake',
    calls,
    requestOptions: () => ({}),
    async request<T>(_method: string, path: string): Promise<UpstreamResponse<T>> {
      calls.push(path);
      const doc = docs.get(path) ?? { status: 404 };
      if (doc instanceof Error) throw doc;
      return { status: doc.status, headers: {}, body: { resources: (doc.names ?? []).map((name) => ({ name })) } as T };
    },
    stream: () => Promise.reject(new Error('no streams')),
    close: () => undefined,
  };
}

const cronV1: ServedResource = { group: 'batch', version: 'v1', resource: 'cronjobs' };
const jobs: ServedResource = { group: 'batch', version: 'v1', resource: 'jobs' };
const configmaps: ServedResource = { group: '', version: 'v1', resource: 'configmaps' };
const pdbV1: ServedResource = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
const flaky: ServedResource = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods' };

describe('checkServed', () => {
  it('says served, missing (404 or not listed) or unknown (other failures), one GET per group-version', async () => {
    const up = fakeDiscovery(new Map<string, { status: number; names?: string[] } | Error>([
      ['/apis/batch/v1', { status: 200, names: ['jobs', 'jobs/status'] }], // Kubernetes 1.20: no cronjobs in batch/v1
      ['/api/v1', { status: 200, names: ['configmaps'] }],
      ['/apis/metrics.k8s.io/v1beta1', { status: 503 }],
    ]));
    assert.deepEqual(await checkServed(up, [cronV1, jobs, configmaps, pdbV1, flaky]), [false, true, true, false, undefined]);
    assert.deepEqual(up.calls.sort(), ['/api/v1', '/apis/batch/v1', '/apis/metrics.k8s.io/v1beta1', '/apis/policy/v1']);
  });

  it('treats a network failure as unknown, never as missing', async () => {
    const up = fakeDiscovery(new Map([['/apis/batch/v1', new Error('ECONNRESET')]]));
    assert.deepEqual(await checkServed(up, [cronV1]), [undefined]);
  });
});

describe('watchServedResources', () => {
  it('reports a missing resource once, and as served when discovery lists it later', async () => {
    const docs = new Map<string, { status: number; names?: string[] }>([['/apis/batch/v1', { status: 200, names: ['jobs'] }]]);
    const up = fakeDiscovery(docs);
    const served: string[] = [];
    const missing: string[] = [];
    const w = watchServedResources({ upstream: up, resources: [cronV1, jobs], intervalMs: 20, onServed: (r) => served.push(r.resource), onMissing: (r) => missing.push(r.resource) });
    try {
      await w.checked();
      assert.deepEqual(served, ['jobs']);
      assert.deepEqual(missing, ['cronjobs']);
      assert.deepEqual(w.missing(), [cronV1]);
      // Several more checks pass: still reported only once.
      await eventually(async () => (up.calls.length >= 4 ? true : undefined), 'discovery asked again');
      assert.deepEqual(missing, ['cronjobs']);
      docs.set('/apis/batch/v1', { status: 200, names: ['jobs', 'cronjobs'] });
      await eventually(async () => (served.includes('cronjobs') ? true : undefined), 'cronjobs picked up');
      assert.deepEqual(served, ['jobs', 'cronjobs']);
      assert.deepEqual(w.missing(), []);
      const calls = up.calls.length;
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(up.calls.length, calls, 'nothing missing: discovery is not polled any more');
    } finally {
      w.stop();
    }
  });
});

describe('watchServedResources: wanted', () => {
  it('a resource no longer wanted is neither asked about again nor kept missing (a fallback version once the newer one is watched)', async () => {
    const cronV1beta1: ServedResource = { group: 'batch', version: 'v1beta1', resource: 'cronjobs' };
    const up = fakeDiscovery(new Map([['/apis/batch/v1', { status: 200, names: ['jobs', 'cronjobs'] }]]));
    const served: ServedResource[] = [];
    const w = watchServedResources({
      upstream: up, resources: [cronV1, cronV1beta1], intervalMs: 20,
      onServed: (r) => served.push(r), wanted: (r) => !(r === cronV1beta1 && served.includes(cronV1)),
    });
    try {
      await w.checked();
      assert.deepEqual(served, [cronV1]);
      assert.deepEqual(w.missing(), [], 'the fallback is not missing: it is not wanted');
      const calls = up.calls.length;
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(up.calls.length, calls, 'discovery is not polled for it');
    } finally {
      w.stop();
    }
  });
});
