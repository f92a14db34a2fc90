// Exec, attach and port-forward hold a per-tenant fairness seat for their whole
// session (issue 13's "also seen"), end to end: real TLS with the tenant's client
// certificate, the whole gateway chain, an embedded upstream whose test-only
// kubelet stand-in (ApiServerOptions.podStreams) answers 101 and holds every
// session open. With 2 seats, acme's third session gets 429 TooManyRequests with
// Retry-After while two are held; globex is unaffected; a closed session frees
// its seat.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import tls from 'node:tls';
import type https from 'node:https';
import type { Duplex } from 'node:stream';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';

describe('upgrade seats through the gateway', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  const kubelet: Duplex[] = [];
  const clients: tls.TLSSocket[] = [];
  before(async () => {
    h = await startGatewayHarness({
      tenants: TWO_TENANTS,
      gateway: { fairness: { defaults: { seats: 2, queueLength: 2, queueTimeoutMs: 5_000 } } },
      podStreams: (_req, socket) => {
        kubelet.push(socket);
        socket.on('error', () => undefined);
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: SPDY/3.1\r\nConnection: Upgrade\r\n\r\n');
      },
    });
  });
  after(async () => {
    for (const c of clients) c.destroy();
    for (const s of kubelet) s.destroy();
    await h?.stop();
  });

  /** Opens an exec upgrade as the tenant's admin; resolves with the status line and headers the gateway answered. */
  async function exec(tenant: string): Promise<{ socket: tls.TLSSocket; head: string }> {
    const client = h.http(tenant, 'admin');
    const url = new URL(client.server);
    const opts: https.RequestOptions = {};
    await client.kubeConfig.applyToHTTPSOptions(opts);
    const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: opts.ca, cert: opts.cert, key: opts.key, servername: 'localhost' });
    clients.push(socket);
    socket.on('error', () => undefined);
    socket.write(`POST /api/v1/namespaces/dev/pods/web/exec?command=sh&stdin=true&stdout=true HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n`);
    const head = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => { text += c.toString('utf8'); if (text.includes('\r\n\r\n')) resolve(text); });
      socket.on('close', () => resolve(text));
    });
    return { socket, head };
  }

  it('two sessions held, the third refused with 429 and Retry-After, globex unaffected, a closed session frees its seat', async () => {
    await h.http('acme', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } });
    await h.http('globex', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dev' } });
    const first = await exec('acme');
    const second = await exec('acme');
    assert.match(first.head, /^HTTP\/1\.1 101/, first.head);
    assert.match(second.head, /^HTTP\/1\.1 101/, second.head);
    await eventually(async () => kubelet.length === 2, 'both sessions reached the kubelet stand-in');
    const third = await exec('acme');
    assert.match(third.head, /^HTTP\/1\.1 429/, `the third held session is refused: ${third.head}`);
    assert.match(third.head, /Retry-After: \d+/i);
    assert.match(third.head, /TooManyRequests/);
    assert.ok(!third.head.includes('acme01-'), 'in tenant terms');
    const other = await exec('globex');
    assert.match(other.head, /^HTTP\/1\.1 101/, `globex has its own seats: ${other.head}`);
    const get = await h.http('acme', 'admin').get('/api/v1/namespaces/dev/configmaps');
    assert.equal(get.status, 200, 'ordinary requests keep the tenant\'s share');
    first.socket.destroy();
    await eventually(async () => /^HTTP\/1\.1 101/.test((await exec('acme')).head), 'a seat comes back once a session closes');
  });
});
