import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUpstreamCheck } from '../../../../src/gateway/health/upstream-check.ts';
import { startEventLoopWatch } from '../../../../src/gateway/health/event-loop-check.ts';
import { createTenantCaCheck } from '../../../../src/gateway/health/tenant-ca-check.ts';
import { settledCheck } from '../../../../src/gateway/health/health-check.ts';
import { createCa } from '../../../../src/pki/certificates.ts';
import type { UpstreamResponse } from '../../../../src/kube/upstream.ts';

function fakeUpstream(answer: () => Promise<UpstreamResponse>) {
  const calls: string[] = [];
  return {
    calls,
    upstream: { request: <T>(method: string, path: string) => { calls.push(`${method} ${path}`); return answer() as Promise<UpstreamResponse<T>>; } },
  };
}

describe('upstream check', () => {
  it('asks the upstream its /readyz, and says why when it is not 200', async () => {
    let status = 200;
    const { upstream, calls } = fakeUpstream(async () => ({ status, headers: {}, body: 'ok' }));
    let now = 0;
    const check = createUpstreamCheck(upstream, { now: () => now });
    assert.equal(await check.check(), undefined);
    assert.deepEqual(calls, ['GET /readyz']);
    status = 500;
    now = 1_000;
    assert.equal(await check.check(), 'upstream /readyz answered 500');
  });

  it('reuses an answer for a second, so a burst of probes is one upstream request', async () => {
    const { upstream, calls } = fakeUpstream(async () => ({ status: 200, headers: {}, body: 'ok' }));
    let now = 10_000;
    const check = createUpstreamCheck(upstream, { now: () => now, cacheMs: 1_000 });
    await Promise.all([check.check(), check.check(), check.check()]);
    now += 999;
    await check.check();
    assert.equal(calls.length, 1);
    now += 1;
    await check.check();
    assert.equal(calls.length, 2);
  });

  it('names the error code, never the message with the address', async () => {
    const { upstream } = fakeUpstream(() => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:6443'), { code: 'ECONNREFUSED' })));
    assert.equal(await createUpstreamCheck(upstream).check(), 'upstream unreachable (ECONNREFUSED)');
  });

  it('fails at its deadline when the upstream hangs', async () => {
    const { upstream } = fakeUpstream(() => new Promise(() => undefined));
    assert.equal(await createUpstreamCheck(upstream, { timeoutMs: 20 }).check(), 'upstream did not answer within 20 ms');
  });
});

describe('event-loop check', () => {
  it('fails while a recent tick came later than the threshold, and passes again after the window', () => {
    let now = 0;
    const watch = startEventLoopWatch({ now: () => now, intervalMs: 500, thresholdMs: 5_000, windowMs: 30_000 });
    try {
      now = 500;
      watch.tick();
      assert.equal(watch.check.check(), undefined);
      now = 500 + 500 + 4_999; // late, but under the threshold
      watch.tick();
      assert.equal(watch.check.check(), undefined);
      now += 500 + 6_000; // stalled 6 s
      watch.tick();
      assert.match(String(watch.check.check()), /^event loop stalled for 6000 ms/);
      now += 30_001;
      assert.equal(watch.check.check(), undefined);
    } finally {
      watch.stop();
    }
  });
});

describe('tenant-ca check', () => {
  it('passes with a CA in its validity, fails when missing, unreadable or expired', async () => {
    const ca = await createCa('warren-tenant-ca');
    assert.equal(createTenantCaCheck(() => ca).check(), undefined);
    assert.equal(createTenantCaCheck(() => undefined).check(), 'tenant CA not loaded');
    assert.equal(createTenantCaCheck(() => ({ certPem: 'junk', keyPem: 'junk' })).check(), 'tenant CA certificate unreadable');
    assert.equal(createTenantCaCheck(() => ca, () => Date.now() + 100 * 365 * 24 * 3600_000).check(), 'tenant CA expired');
  });
});

describe('settledCheck', () => {
  it('fails until the promise resolves; a rejection stays failed', async () => {
    let resolve = (): void => undefined;
    const check = settledCheck('informers-synced', new Promise<void>((r) => { resolve = r; }), 'informers not synced');
    assert.equal(check.check(), 'informers not synced');
    resolve();
    await new Promise((r) => setImmediate(r));
    assert.equal(check.check(), undefined);
    const rejected = settledCheck('x', Promise.reject(new Error('stopped')), 'not synced');
    await new Promise((r) => setImmediate(r));
    assert.equal(rejected.check(), 'not synced (failed)');
  });
});
