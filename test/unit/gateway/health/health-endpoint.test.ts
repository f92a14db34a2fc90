import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHealthEndpoint, runCheck } from '../../../../src/gateway/health/health-endpoint.ts';
import { namedCheck } from '../../../../src/gateway/health/health-check.ts';

describe('health endpoint', () => {
  let server: http.Server;
  let base: string;
  let upstreamDown = false;
  const lines: string[] = [];

  before(async () => {
    const ping = namedCheck('ping', () => undefined);
    const serve = createHealthEndpoint({
      checks: {
        livez: [ping],
        healthz: [ping],
        readyz: [
          ping,
          namedCheck('upstream', () => (upstreamDown ? 'upstream unreachable (ECONNREFUSED)' : undefined)),
          namedCheck('thrower', () => { throw new Error('boom'); }),
        ],
      },
      log: (line) => lines.push(line),
    });
    server = http.createServer((req, res) => void serve(req, res, new URL(req.url ?? '/', 'http://x')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function get(path: string): Promise<{ status: number; body: string; type: string | null }> {
    const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
  }

  it('/livez: ok as plain text', async () => {
    assert.deepEqual(await get('/livez'), { status: 200, body: 'ok', type: 'text/plain; charset=utf-8' });
  });

  it('/readyz: a throwing check fails with its name, the reason withheld', async () => {
    const res = await get('/readyz');
    assert.equal(res.status, 500);
    assert.equal(res.body, '[+]ping ok\n[+]upstream ok\n[-]thrower failed: reason withheld\nreadyz check failed\n');
  });

  it('?exclude skips a check; repeated excludes and unknown names are reported as kube does', async () => {
    assert.deepEqual(await get('/readyz?exclude=thrower'), { status: 200, body: 'ok', type: 'text/plain; charset=utf-8' });
    const res = await get('/readyz?verbose&exclude=thrower&exclude=nope');
    assert.equal(res.status, 200);
    assert.equal(res.body, '[+]ping ok\n[+]upstream ok\n[+]thrower excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n');
  });

  it('/readyz/<check> runs that check alone; an unknown one is 404', async () => {
    assert.equal((await get('/readyz/ping')).body, 'ok');
    upstreamDown = true;
    assert.deepEqual(await get('/readyz/upstream'), { status: 500, body: 'internal server error: upstream unreachable (ECONNREFUSED)\n', type: 'text/plain; charset=utf-8' });
    upstreamDown = false;
    assert.equal((await get('/readyz/nothing')).status, 404);
    assert.equal((await get('/livez/upstream')).status, 404);
  });

  it('logs the reasons once per change of the failing set, not on every probe', async () => {
    lines.length = 0;
    await get('/readyz?exclude=thrower');
    upstreamDown = true;
    await get('/readyz?exclude=thrower');
    await get('/readyz?exclude=thrower');
    upstreamDown = false;
    await get('/readyz?exclude=thrower');
    const events = lines.map((l) => JSON.parse(l) as { event: string; failed?: Array<{ name: string; reason: string }> });
    // The earlier probes already left readyz passing (with thrower excluded): no line for the first one here.
    assert.deepEqual(events.map((e) => e.event), ['health-check-failed', 'health-check-passed']);
    assert.deepEqual(events[0]?.failed, [{ name: 'upstream', reason: 'upstream unreachable (ECONNREFUSED)' }]);
  });
});

describe('runCheck', () => {
  it('a check that never answers fails at the deadline', async () => {
    const result = await runCheck(namedCheck('slow', () => new Promise(() => undefined)), 20);
    assert.deepEqual(result, { name: 'slow', failure: 'no answer within 20 ms' });
  });
  it('a rejected promise is a failure with its message', async () => {
    assert.deepEqual(await runCheck(namedCheck('r', () => Promise.reject(new Error('nope'))), 1_000), { name: 'r', failure: 'nope' });
  });
});
