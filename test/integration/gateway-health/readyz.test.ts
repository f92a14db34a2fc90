// The gateway's /livez and /readyz against a real (embedded) upstream, before
// and after the upstream goes away; and the request id on the log lines about
// a request that failed because of it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startGatewayHarness, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import { createLogger, lineLogger } from '../../../src/observability/logger.ts';

describe('gateway health', { timeout: 60_000 }, () => {
  let harness: GatewayHarness;
  const chunks: string[] = [];
  const logLines = (): Array<Record<string, unknown>> => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  before(async () => {
    const destination = new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk.toString()); done(); } });
    harness = await startGatewayHarness({
      tenants: [{ name: 'acme', id: 'acme01', users: [{ name: 'admin', admin: true }] }],
      log: lineLogger(createLogger({ level: 'debug', destination }).child({ component: 'gateway' })),
    });
  });
  after(() => harness.stop());

  it('/readyz?verbose and /livez?verbose list their named checks, without credentials', async () => {
    const anon = harness.anonymous();
    const ready = await anon.get('/readyz?verbose');
    assert.equal(ready.status, 200);
    assert.equal(ready.text, '[+]ping ok\n[+]shutdown ok\n[+]upstream ok\n[+]informers-synced ok\n[+]tenant-ca ok\nreadyz check passed\n');
    assert.equal((await anon.get('/readyz')).text, 'ok');
    const live = await anon.get('/livez?verbose');
    assert.equal(live.text, '[+]ping ok\n[+]event-loop ok\nlivez check passed\n');
    assert.equal((await anon.get('/readyz/tenant-ca')).text, 'ok');
  });

  it('with the upstream gone: readyz fails naming upstream, livez still passes, exclude and /readyz/<check> behave as kube', async () => {
    const anon = harness.anonymous();
    const tenant = harness.http('acme', 'admin');
    assert.equal((await tenant.get('/api/v1/namespaces/default/configmaps')).status, 200);
    await harness.api.stop();

    let verbose = await anon.get('/readyz?verbose');
    await eventually(async () => {
      verbose = await anon.get('/readyz?verbose');
      return verbose.status === 500;
    }, '/readyz to fail once the upstream check sees the upstream gone', { timeoutMs: 10_000, intervalMs: 200 });
    assert.equal(verbose.text, '[+]ping ok\n[+]shutdown ok\n[-]upstream failed: reason withheld\n[+]informers-synced ok\n[+]tenant-ca ok\nreadyz check failed\n');
    const terse = await anon.get('/readyz');
    assert.equal(terse.status, 500);
    assert.equal(terse.text, verbose.text, 'kube is verbose on failure');
    const single = await anon.get('/readyz/upstream');
    assert.equal(single.status, 500);
    assert.match(single.text, /^internal server error: upstream unreachable( \([A-Z_]+\))?\n$/);
    assert.doesNotMatch(single.text, /127\.0\.0\.1|:\d{2,5}/, 'no upstream address in a public answer');
    assert.deepEqual([(await anon.get('/readyz?exclude=upstream')).status, (await anon.get('/readyz?exclude=upstream')).text], [200, 'ok']);
    assert.equal((await anon.get('/readyz?verbose&exclude=upstream')).text,
      '[+]ping ok\n[+]shutdown ok\n[+]upstream excluded: ok\n[+]informers-synced ok\n[+]tenant-ca ok\nreadyz check passed\n');
    assert.equal((await anon.get('/livez')).status, 200, 'an upstream outage must not restart the gateway');

    // The reason, withheld from the public answer, is in the log.
    const failed = logLines().find((l) => l.event === 'health-check-failed' && l.endpoint === 'readyz');
    assert.ok(failed, 'a health-check-failed line');
    assert.match(JSON.stringify(failed.failed), /upstream unreachable/);

    // A tenant request that fails on the missing upstream: its Audit-ID is on the log line about it.
    const res = await tenant.get('/api/v1/namespaces/default/configmaps');
    assert.ok(res.status >= 500, `status ${res.status}`);
    const auditID = res.headers['audit-id'];
    assert.equal(typeof auditID, 'string');
    await eventually(async () => logLines().some((l) => l.event === 'request-failed' && l.auditID === auditID), 'the request-failed line with the Audit-ID', { timeoutMs: 5_000, intervalMs: 50 });
    const line = logLines().find((l) => l.event === 'request-failed' && l.auditID === auditID);
    assert.equal(line?.component, 'gateway');
    assert.equal(line?.code, res.status);
    assert.equal(line?.path, '/api/v1/namespaces/default/configmaps');
  });
});
