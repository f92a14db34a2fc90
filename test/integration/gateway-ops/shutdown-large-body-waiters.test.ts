// Shutdown and the large-body gate (ADR 0026): a tenant's large write waiting for its turn behind the
// tenant's large write in progress was in no drain. stop() found nothing in flight, and at the deadline
// the listener cut both connections: the waiter got no answer at all (a reset), and the log said nothing
// was cut. Now a request is in flight from its authentication on, and the drain answers the waiters
// 503 + Retry-After at once (their bodies unread: nothing of them was done, the client may send them again).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';
import { eventually } from '../../helpers/poll.ts';

const DEADLINE_MS = 8_000;

interface Answer { status: number; retryAfter?: string | undefined; body: string }

/** A POST of `payload`; `sent` bytes of it now (all when omitted). Resolves with the answer, or rejects on a cut connection. */
async function post(client: KubeHttp, path: string, payload: Buffer, sent = payload.length): Promise<{ answer: Promise<Answer> }> {
  const req = https.request(await client.httpsOptions('POST', path, { 'Content-Type': 'application/json', 'Content-Length': payload.length }));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
  if (sent >= payload.length) req.end(payload);
  else req.write(payload.subarray(0, sent));
  return { answer };
}

const largeConfigMap = (name: string): Buffer =>
  Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: 'x'.repeat(300 * 1024) } }));

describe('shutdown with large writes waiting for their turn', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  const logs: string[] = [];
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS, gateway: { shutdownDeadlineMs: DEADLINE_MS }, log: (line) => logs.push(line) });
  });
  after(async () => h?.stop());

  it('the waiter is answered 503 with Retry-After, the write whose body never ends is cut at the deadline and counted', async () => {
    const acme = h.http('acme', 'admin');
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
    const path = '/api/v1/namespaces/web/configmaps';
    // Holds acme's turn: half its body sent, the rest never comes.
    const { answer: stuck } = await post(acme, path, largeConfigMap('stuck'), 1000);
    const stuckSettled = stuck.then(() => 'answered', () => 'cut');
    const { answer: waiter } = await post(acme, path, largeConfigMap('waiter'));
    await eventually(async () => (await h.gateway.metrics.render()).body.includes('warren_gateway_inflight_requests{kind="requests"} 2'),
      'both writes in flight (one reading its body, one waiting for its turn)');

    const stopped = h.gateway.stop();
    const answer = await waiter;
    assert.equal(answer.status, 503, answer.body);
    assert.equal(answer.retryAfter, '1');
    const status = JSON.parse(answer.body) as { reason?: string; message?: string };
    assert.equal(status.reason, 'ServiceUnavailable');
    assert.match(status.message ?? '', /shutting down/);
    await stopped;
    assert.equal(await stuckSettled, 'cut');
    assert.ok(logs.some((l) => l.includes('shutdown deadline reached: 1 requests cut')), `the cut write is counted: ${logs.slice(-8).join(' / ')}`);
    // Neither write reached the upstream.
    for (const name of ['stuck', 'waiter']) assert.equal((await h.upstream.request('GET', `/api/v1/namespaces/${h.idOf('acme')}-web/configmaps/${name}`)).status, 404);
  });
});
