// stop() (SIGTERM in the CLI): the gateway stops accepting connections, ends
// open watches with a clean end of the chunked response (proxied and cache
// watches alike: client-go then re-lists), lets a request in flight finish,
// and resolves well before its deadline once nothing is left.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const DEADLINE_MS = 20_000;

/** How a response stream ended: 'end' only when the final chunk arrived. */
function howItEnds(res: IncomingMessage): Promise<'end' | 'aborted'> {
  return new Promise((resolve) => {
    res.resume();
    res.once('end', () => resolve('end'));
    res.once('aborted', () => resolve('aborted'));
    res.once('error', () => resolve('aborted'));
  });
}

/** A POST whose body arrives in two halves, the second when `finish` is called. */
async function slowPost(client: KubeHttp, path: string, body: unknown): Promise<{ finish(): void; response: Promise<number> }> {
  const payload = Buffer.from(JSON.stringify(body));
  const url = new URL(client.server + path);
  const opts: https.RequestOptions = {
    method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, agent: false,
    headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, Accept: 'application/json' },
  };
  await client.kubeConfig.applyToHTTPSOptions(opts);
  const req = https.request(opts);
  const response = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  req.write(payload.subarray(0, 10));
  return { finish: () => req.end(payload.subarray(10)), response };
}

describe('graceful shutdown', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS, gateway: { shutdownDeadlineMs: DEADLINE_MS } });
  });
  after(async () => h?.stop());

  it('ends watches cleanly, refuses new connections, lets the request in flight finish', async () => {
    const acme = h.http('acme', 'admin');
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web' } })).status, 201);
    const proxied = await acme.open('GET', '/api/v1/namespaces/web/configmaps?watch=1');
    const cached = await acme.open('GET', '/api/v1/configmaps?watch=1');
    assert.equal(proxied.res.statusCode, 200);
    assert.equal(cached.res.statusCode, 200);
    const ends = Promise.all([howItEnds(proxied.res), howItEnds(cached.res)]);
    const post = await slowPost(acme, '/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' }, data: { a: 'b' } });
    // Let the POST get through authentication and admission before the drain starts.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = Date.now();
    const stopped = h.gateway.stop();
    assert.deepEqual(await ends, ['end', 'end']);
    await assert.rejects(acme.get('/api/v1/namespaces/web/configmaps'), /ECONNREFUSED|ECONNRESET|socket hang up/);
    post.finish();
    assert.equal(await post.response, 201);
    await stopped;
    assert.ok(Date.now() - started < DEADLINE_MS, 'stop() resolves once nothing is in flight, not at the deadline');
    // The write that finished during the drain is there.
    assert.equal((await h.upstream.request('GET', '/api/v1/namespaces/acme01-web/configmaps/late')).status, 200);
  });
});
